// The error type moved to the support layer (support/error.h).
#pragma once
#include "support/error.h"
