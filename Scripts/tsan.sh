#!/usr/bin/env bash
# Runs the whole test suite under the thread sanitizer, in its own build folder (.build-tsan) so
# that the normal build is not thrown away.
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
