#!/usr/bin/env python3
"""The python-statemachine oracle of ../shared/oracle/psm_trace.py, stopped at a microstep limit.

  bounded_oracle.py --limit N PSM_TRACE.py CHART.scxml [EV ...]

Runs psm_trace.py (read in place) as it is, with python-statemachine's event loop counting
microsteps the way `StateMachine` counts them against its microstep limit, so that a chart whose
eventless transitions or raised events loop for ever stops at the same point in both engines:

  - the start and each external event (sent, or delayed and fallen due) start a count, as each is
    a call of its own to the machine inside an SCXML session; the start and an external event that
    a transition takes count one;
  - each set of eventless transitions taken, and each internal event taken from the queue (whether
    a transition takes it or not), counts one;
  - the call stops before the count would go past N.

Where the count reaches N and one more would be needed, it prints one line
{"configuration": [...], "basic": [...], "done": false, "stopped": true, "limit": N} and exits 0.
`statechart differential --microstep-limit N` stops its own runs the same way and compares the
configurations at the stop.
"""
import importlib.util
import json
import os
import sys


def main():
    args = sys.argv[1:]
    if len(args) < 4 or args[0] != '--limit':
        print(__doc__)
        return 2
    limit = int(args[1])
    trace_path = args[2]
    sys.argv = [trace_path] + args[3:]
    spec = importlib.util.spec_from_file_location('psm_trace', trace_path)
    psm_trace = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(psm_trace)

    import statemachine.engines.sync as sync_mod
    from statemachine.event_data import TriggerData

    engine = sync_mod.SyncEngine
    state = {'count': 0, 'starting': False}

    def stop_if_over(self):
        if state['count'] < limit:
            return
        configuration = list(self.sm.configuration)
        ids = sorted(s.id for s in configuration)
        basic = sorted(s.id for s in configuration if not any(c in configuration for c in s.states))
        print(json.dumps({'configuration': ids, 'basic': basic, 'done': False, 'stopped': True,
                          'limit': limit}), flush=True)
        os._exit(0)

    original_start = engine.activate_initial_state

    def activate_initial_state(self, **kwargs):
        # Entering the initial configuration is the start's first microstep.
        state['count'] = 1
        state['starting'] = True
        return original_start(self, **kwargs)

    original_loop = engine.processing_loop

    def processing_loop(self):
        # Only the outermost call counts from zero: an event sent by an action re-enters here.
        if not self._processing.locked():
            if state['starting']:
                state['starting'] = False
            else:
                state['count'] = 0
        return original_loop(self)

    def run_macrostep(self):
        # python-statemachine 3.2.2's _run_macrostep, with the count.
        took_events = False
        while True:
            self._microstep_count = 0
            self.clear_cache()
            internal_event = TriggerData(self.sm, event=None)
            enabled_transitions = self.select_eventless_transitions(internal_event)
            if not enabled_transitions:
                if self.internal_queue.is_empty():
                    return took_events
                internal_event = self.internal_queue.pop()
                stop_if_over(self)
                state['count'] += 1
                enabled_transitions = self.select_transitions(internal_event)
            else:
                stop_if_over(self)
                state['count'] += 1
            if enabled_transitions:
                took_events = True
                self.microstep(list(enabled_transitions), internal_event)

    original_take = engine._take_external_event

    def take_external_event(self, external_event):
        # Each external event (one sent, or a delayed one that fell due) is a call of its own.
        state['count'] = 0
        result = original_take(self, external_event)
        if result is not self._sentinel:
            state['count'] += 1
        return result

    engine.activate_initial_state = activate_initial_state
    engine.processing_loop = processing_loop
    engine._run_macrostep = run_macrostep
    engine._take_external_event = take_external_event
    return psm_trace.main()


if __name__ == '__main__':
    sys.exit(main())
