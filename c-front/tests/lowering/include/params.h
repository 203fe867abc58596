#ifndef PARAMS_H
#define PARAMS_H
#include "types.h"
#define TILE 8
typedef real_t value_t;
__device__ int tile_of(int i) { return i / TILE; }
#endif
