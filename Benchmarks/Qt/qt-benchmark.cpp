// Qt SCXML measured in the same run as the Swift benchmarks (Scripts/benchmark.sh builds and runs
// it): the flat 3-state cycle and the hierarchical chart of Charts.swift, the ECMAScript counter
// (Benchmarks/Documents/ecmascript-counter.scxml, on Qt's ECMAScript data model), and uSCXML's
// Transitions.4 and LCCA.4, each compiled to C++ with qscxmlc.
//
// Events: each is submitted with submitEvent and processed by the event loop, as a Qt application
// does; the figure is the better of two ways, one processEvents() per event, or a batch of 1,000
// submitted events processed together. uSCXML charts: entries of `mark` per second, counted by a
// direct connection to the state's signal, which stops the machine after the entries wanted.
//
// Prints one `NAME<TAB>VALUE` line per case: nanoseconds per event, or entries of `mark` per second.
// With `count CASE N`, runs one case once, N events (or entries), batched, untimed: callgrind counts
// its instructions (Scripts/benchmark.sh --instructions). The uSCXML cases are built only when
// their charts are (WITH_USCXML).
//
// The counter's runs check the data model's `count` when they end: a run whose events did not all
// run their `cond` and `<assign>` exits with status 1 rather than print a figure.
//
// Usage: qt-benchmark [EVENTS]
//        qt-benchmark count flat-3|hierarchy-5|ecmascript-counter|Transitions.4|LCCA.4 N

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QScxmlDataModel>
#include <QScxmlStateMachine>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <cstring>
#include <type_traits>

#include "counter.h"
#include "deep.h"
#include "flat.h"
#ifdef WITH_USCXML
#include "lcca4.h"
#include "transitions4.h"
#endif

namespace {

// After `events` ticks the counter holds their number modulo 100 (it counts to 99, then to 0).
void checkCounter(QScxmlStateMachine &machine, long events) {
    QScxmlDataModel *model = machine.dataModel();
    if (!model || !model->hasScxmlProperty(QStringLiteral("count"))) {
        std::fprintf(stderr, "qt-benchmark: the counter's data model has no count\n");
        std::exit(1);
    }
    const long count = model->scxmlProperty(QStringLiteral("count")).toLongLong();
    if (count != events % 100) {
        std::fprintf(stderr, "qt-benchmark: the counter holds %ld after %ld ticks, not %ld\n", count, events,
                     events % 100);
        std::exit(1);
    }
}

// Sends `events` events to a new machine, `batch` submitted before each processEvents(); returns
// the nanoseconds per event.
template <typename Machine>
double timeEvents(const char *event, long events, long batch) {
    Machine machine;
    machine.start();
    QCoreApplication::processEvents();
    const QString name = QString::fromLatin1(event);
    QElapsedTimer timer;
    timer.start();
    for (long i = 0; i < events; i += batch) {
        for (long j = 0; j < batch; ++j) machine.submitEvent(name);
        QCoreApplication::processEvents();
    }
    const double nanoseconds = double(timer.nsecsElapsed()) / double(events);
    if constexpr (std::is_same_v<Machine, Counter>) checkCounter(machine, events);
    return nanoseconds;
}

// Nanoseconds per event, the best of three rounds of one processEvents() per event and of
// batches of 1,000.
template <typename Machine>
double nanosecondsPerEvent(const char *event, long events) {
    double best = 1e300;
    for (int round = 0; round < 3; ++round) {
        best = std::min(best, timeEvents<Machine>(event, events, 1));
        best = std::min(best, timeEvents<Machine>(event, events, 1000));
    }
    return best;
}

#ifdef WITH_USCXML
// Runs a uSCXML chart until `mark` was entered `entries` times; returns the seconds it took.
template <typename Machine>
double runEntries(long entries) {
    Machine machine;
    long seen = 0;
    QObject::connect(
        &machine, &Machine::markChanged, &machine,
        [&](bool active) {
            if (active && ++seen == entries) machine.stop();
        },
        Qt::DirectConnection);
    QElapsedTimer timer;
    timer.start();
    machine.start();
    while (machine.isRunning()) QCoreApplication::processEvents();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    if (seen < entries) {
        std::fprintf(stderr, "qt-benchmark: the machine stopped after %ld entries of mark\n", seen);
        std::exit(1);
    }
    return seconds;
}

// Entries of `mark` per second, the best of three runs of `entries` entries.
template <typename Machine>
double entriesPerSecond(long entries) {
    double best = 0;
    for (int round = 0; round < 3; ++round) best = std::max(best, double(entries) / runEntries<Machine>(entries));
    return best;
}
#endif

}  // namespace

int main(int argc, char **argv) {
    QCoreApplication app(argc, argv);
    if (argc == 4 && std::strcmp(argv[1], "count") == 0) {
        const char *name = argv[2];
        const long count = std::atol(argv[3]);
        if (count < 1000) {
            std::fprintf(stderr, "qt-benchmark: count N needs N of at least 1000\n");
            return 2;
        }
        if (std::strcmp(name, "flat-3") == 0) {
            timeEvents<Flat>("next", count, 1000);
        } else if (std::strcmp(name, "hierarchy-5") == 0) {
            timeEvents<Deep>("hop", count, 1000);
        } else if (std::strcmp(name, "ecmascript-counter") == 0) {
            timeEvents<Counter>("tick", count, 1000);
#ifdef WITH_USCXML
        } else if (std::strcmp(name, "Transitions.4") == 0) {
            runEntries<Transitions4>(count);
        } else if (std::strcmp(name, "LCCA.4") == 0) {
            runEntries<Lcca4>(count);
#endif
        } else {
            std::fprintf(stderr, "qt-benchmark: no case %s\n", name);
            return 2;
        }
        return 0;
    }
    const long events = argc > 1 ? std::atol(argv[1]) : 200000;
    if (events < 1000) {
        std::fprintf(stderr, "usage: qt-benchmark [EVENTS], at least 1000\n");
        return 2;
    }
    std::printf("flat-3\t%.2f\n", nanosecondsPerEvent<Flat>("next", events));
    std::printf("hierarchy-5\t%.2f\n", nanosecondsPerEvent<Deep>("hop", events));
    std::printf("ecmascript-counter\t%.2f\n", nanosecondsPerEvent<Counter>("tick", events));
#ifdef WITH_USCXML
    std::printf("Transitions.4\t%.4g\n", entriesPerSecond<Transitions4>(events));
    std::printf("LCCA.4\t%.4g\n", entriesPerSecond<Lcca4>(events));
#endif
    return 0;
}
