#!/usr/bin/env bash
# Runs the whole test suite under the thread sanitizer, in its own build folder (.build-tsan) so
# that the normal build is not thrown away. CI does not run it (too slow there); run it by hand
# after changing code that crosses threads or actors (the live runtimes, the store's workers, the
# servers), as CI used to, and look for "WARNING: ThreadSanitizer" in the output:
#
#   Scripts/tsan.sh --skip StatechartsStoreTests \
#     --skip 'RandomChartTests|QuickStepTests|ArchiveTests|ArchiveConformanceTests|PropertyTests|PathCoverTests|PathsCommandTests|EscapingPropertyTests|HostileDocumentTests'
#   Scripts/tsan.sh --filter StatechartsStoreTests
#
# The suites the first skips run charts on one thread only, or run the tool as a child process
# whose sanitizer reports reach the test's pipe rather than the output, under wall-clock limits a
# sanitized child can miss. The store's suites run by themselves, so that on two cores they do not
# crowd the suites with time limits.
#
# JavaScriptCore stops a running script by signalling its thread, and its concurrent collector
# suspends threads with signals too. The thread sanitizer delays signals until the thread reaches
# instrumented code, which JavaScriptCore's JIT code never is, so both wait forever. Under the
# sanitizer only, JavaScriptCore polls for termination instead and collects on the thread itself.
set -euo pipefail
cd "$(dirname "$0")/.."
export JSC_usePollingTraps=true JSC_useConcurrentGC=false
# What the sanitizer reports about JavaScriptCore itself, not this package:
# Scripts/tsan-suppressions.txt says which and why.
export TSAN_OPTIONS="suppressions=$PWD/Scripts/tsan-suppressions.txt${TSAN_OPTIONS:+:$TSAN_OPTIONS}"
swift test --enable-all-traits --sanitize=thread --scratch-path .build-tsan "$@"
