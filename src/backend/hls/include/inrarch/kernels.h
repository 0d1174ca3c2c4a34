// INR-Arch HLS kernel library: everything a generated model.cpp includes.
#ifndef INRARCH_HLS_KERNELS_H
#define INRARCH_HLS_KERNELS_H

#include "array_stream.h"
#include "dataflow_region.h"
#include "elementwise.h"
#include "mm.h"
#include "mm_reduce.h"
#include "movement.h"
#include "scaled.h"

#endif  // INRARCH_HLS_KERNELS_H
