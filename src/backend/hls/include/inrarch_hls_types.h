// INR-Arch HLS: the arbitrary-precision types and streams used by generated code.
//
// With Vitis HLS on the include path its own headers are used; otherwise (or with
// -DINRARCH_FORCE_COMPAT) the project's small compatible ones in compat/, which cover what
// the kernel library needs (docs/hls.md lists the differences).
#ifndef INRARCH_HLS_TYPES_H
#define INRARCH_HLS_TYPES_H

#if defined(__has_include)
#if __has_include(<ap_fixed.h>) && __has_include(<hls_stream.h>) && \
    !defined(INRARCH_FORCE_COMPAT)
#define INRARCH_HLS_USING_VITIS 1
#endif
#endif

#ifdef INRARCH_HLS_USING_VITIS
#include <ap_fixed.h>
#include <ap_int.h>
#include <hls_stream.h>
#else
#define INRARCH_HLS_USING_VITIS 0
#include "compat/ap_fixed.h"
#include "compat/ap_int.h"
#include "compat/hls_stream.h"
#endif

#endif  // INRARCH_HLS_TYPES_H
