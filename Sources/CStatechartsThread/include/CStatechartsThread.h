#ifndef C_STATECHARTS_THREAD_H
#define C_STATECHARTS_THREAD_H

// The SCXML cascade a session call binds to its thread (`SCXMLCascade.current`): one C11
// thread-local pointer, read and written in a few instructions where `pthread_getspecific` and
// `pthread_setspecific` cost tens. It holds an unretained reference, which the Swift side keeps
// alive while it is bound.

/// The cascade bound to this thread; NULL when none is.
extern _Thread_local const void *_Nullable statecharts_bound_cascade;

/// The cascade bound to this thread, or NULL.
static inline const void *_Nullable statecharts_current_cascade(void) { return statecharts_bound_cascade; }

/// Binds `cascade` (or NULL) to this thread.
static inline void statecharts_bind_cascade(const void *_Nullable cascade) { statecharts_bound_cascade = cascade; }

#endif
