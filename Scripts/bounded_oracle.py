#!/usr/bin/env python3
"""The python-statemachine oracle of ../shared/oracle/psm_trace.py, stopped at a microstep limit.

  bounded_oracle.py [--trace] [--fix NAME,...] --limit N PSM_TRACE.py CHART.scxml [EV ...]

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

--fix corrects departures of python-statemachine 3.2.2 from the W3C algorithm (SCXML Appendix D)
that the long differential runs found, each seen on a chart and checked against the text:

  deep-history     a deep history records every active descendant of its parent; the algorithm
                   records the atomic ones only (exitStates: "isAtomicState(s0) and
                   isDescendant(s0, s)"). With the compound ones recorded, a transition to the
                   history gets a wider domain and re-records what it restores: a loop.
  history-content  entering a history state runs the content of the transition that targeted it a
                   second time, as if it were the history's default content; the algorithm runs the
                   history's own transition content, and only when it has no recorded value
                   (addDescendantStatesToEnter).
  document-order   states are entered and exited in an order of python-statemachine's own (its
                   document-order counter is not carried out of a nested state, and it keeps
                   children in an order of its own); the algorithm enters in document order and
                   exits in reverse (entryOrder, exitOrder). Raised events then queue differently.
  exact-clock      the virtual clock adds seconds as floating-point numbers, so a timer due at the
                   same instant as an event can fall 1e-13 s after it (1000.7 + 4 x 0.1 > 1000.7
                   + 0.4); times are kept in whole microseconds here.

--trace prints each microstep on stderr as `statechart run --trace` does: the event, the states
exited and entered.
"""
import importlib.util
import json
import os
import sys


def main():
    args = sys.argv[1:]
    fixes = set()
    trace = False
    while args and args[0] in ('--fix', '--trace'):
        if args[0] == '--trace':
            trace = True
            args = args[1:]
        else:
            fixes.update(args[1].split(','))
            args = args[2:]
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

    if 'deep-history' in fixes:
        original_prepare_exit = engine._prepare_exit_states

        def prepare_exit_states(self, enabled_transitions):
            ordered_states, result = original_prepare_exit(self, enabled_transitions)
            for info in ordered_states:
                for history in info.state.history:
                    if history.type.is_deep:
                        values = self.sm.history_values[history.id]
                        self.sm.history_values[history.id] = [s for s in values if not s.states]
            return ordered_states, result

        engine._prepare_exit_states = prepare_exit_states

    if 'exact-clock' in fixes:
        class ExactClock:
            # Whole microseconds: each time is rounded as it is set, and a timer is due when its
            # time is not later than now give or take a tenth of a microsecond.
            tolerance = 1e-7

            def __init__(self):
                self._now = 1000.0

            @property
            def now(self):
                return self._now + self.tolerance

            @now.setter
            def now(self, value):
                self._now = round(value, 6)

            def __call__(self):
                return self._now + self.tolerance

        psm_trace.VClock = ExactClock
        original_post_init = TriggerData.__post_init__

        def post_init(self):
            original_post_init(self)
            self.execution_time = round(self.execution_time, 6)

        TriggerData.__post_init__ = post_init

    if 'document-order' in fixes:
        # python-statemachine numbers states for entry and exit order with a counter that its
        # recursion does not carry back, and keeps a state's children in an order of its own: two
        # states can share a number, and a state can come before one that precedes it in the
        # document. Number them as the document orders them (pre-order).
        import xml.etree.ElementTree as ElementTree
        from statemachine.factory import StateMachineMetaclass
        kinds = ('state', 'parallel', 'final', 'history')
        document_order = {}
        for element in ElementTree.parse(args[3]).getroot().iter():
            if isinstance(element.tag, str) and element.tag.split('}')[-1] in kinds and element.get('id'):
                document_order.setdefault(element.get('id'), len(document_order) + 1)
        original_order = StateMachineMetaclass._initials_by_document_order

        def initials_by_document_order(cls, states, parent=None, order=1):
            original_order(cls, states, parent, order)
            if parent is None:
                def renumber(children):
                    for child in children:
                        child.document_order = document_order.get(child.id, child.document_order)
                        renumber(child.states)

                renumber([state for state in states if state.parent is None])

        StateMachineMetaclass._initials_by_document_order = initials_by_document_order

    if 'history-content' in fixes:
        original_history = engine._add_history_states_to_enter

        def add_history_states_to_enter(self, info, state, states_to_enter, states_for_default_entry,
                                        default_history_content):
            original_history(self, info, state, states_to_enter, states_for_default_entry,
                             default_history_content)
            parent_id = state.parent and state.parent.id
            content = [entry for entry in default_history_content.get(parent_id, []) if entry is not info]
            if content:
                default_history_content[parent_id] = content
            else:
                default_history_content.pop(parent_id, None)

        engine._add_history_states_to_enter = add_history_states_to_enter

    if trace:
        # Each microstep on stderr, as `statechart run --trace` prints it: the states exited and
        # entered, in order.
        original_microstep = engine.microstep
        original_plan_exit = engine._prepare_exit_states
        original_plan_entry = engine._prepare_entry_states
        planned = {}

        def plan_exit(self, enabled_transitions):
            ordered_states, result = original_plan_exit(self, enabled_transitions)
            planned['exited'] = [s.id for s in result]
            return ordered_states, result

        def plan_entry(self, enabled_transitions, states_to_exit, previous_configuration):
            plan = original_plan_entry(self, enabled_transitions, states_to_exit, previous_configuration)
            planned['entered'] = [info.state.id for info in plan[0] if info.state]
            return plan

        def microstep(self, transitions, trigger_data):
            planned.clear()
            result = original_microstep(self, transitions, trigger_data)
            name = str(trigger_data.event) if trigger_data.event else '(eventless)'
            print(f"  {name}: exited [{', '.join(planned.get('exited', []))}], "
                  f"entered [{', '.join(planned.get('entered', []))}]", file=sys.stderr, flush=True)
            return result

        engine._prepare_exit_states = plan_exit
        engine._prepare_entry_states = plan_entry
        engine.microstep = microstep

    engine.activate_initial_state = activate_initial_state
    engine.processing_loop = processing_loop
    engine._run_macrostep = run_macrostep
    engine._take_external_event = take_external_event
    return psm_trace.main()


if __name__ == '__main__':
    sys.exit(main())
