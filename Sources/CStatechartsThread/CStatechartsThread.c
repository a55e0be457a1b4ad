#include "CStatechartsThread.h"

_Thread_local const void *_Nullable statecharts_bound_cascade = 0;
