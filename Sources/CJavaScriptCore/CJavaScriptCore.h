// JavaScriptCore's C API: on Linux from the Debian package libjavascriptcoregtk-4.1-dev (found
// with pkg-config), on Apple platforms from the system framework.
#ifndef STATECHARTS_CJAVASCRIPTCORE_H
#define STATECHARTS_CJAVASCRIPTCORE_H

#include <JavaScriptCore/JavaScript.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

// The execution time limit of a context group. Exported by JavaScriptCore on every platform but
// declared only in JSContextRefPrivate.h, which the Linux packages do not install; the
// declaration below is the one of that header.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(
    JSContextGroupRef group, double limit, JSShouldTerminateCallback callback, void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

// From JSBasePrivate.h: the heap's statistics, as an object with `heapSize`, `heapCapacity` and
// `extraMemorySize` (bytes); used by the JavaScript heap limit.
JS_EXPORT JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);

// From JSContextRefPrivate.h: turns `eval` and the Function constructors off, so that the only
// code a context runs is the text the data model gives it.
JS_EXPORT void JSGlobalContextSetEvalEnabled(JSGlobalContextRef ctx, bool enabled, JSStringRef message);

#ifdef __cplusplus
}
#endif

#endif
