/* np_limits.h: the ranges of the NorthPole binary's fields (np_format.h),
 * shared by the printer (targets/northpole/printer.c) and the loader
 * (loader.c) so nc-compile never writes what nc-run refuses.
 *
 * Every count and offset that comes from a file is checked against these
 * bounds with arithmetic that cannot overflow (`start <= elements - span`),
 * and the bounds are small enough that the simulator's sums of them
 * (cycles, MACs over 2^24 iterations) stay far below 2^63.
 */
#ifndef NC_TARGETS_NORTHPOLE_NP_LIMITS_H
#define NC_TARGETS_NORTHPOLE_NP_LIMITS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "np_format.h"

/* The chip section. */
#define NP_MAX_GRID_SIDE 4096u
#define NP_MAX_MACS_PER_CYCLE (1u << 24)
#define NP_MAX_HOP_LATENCY_CYCLES (1u << 20)
#define NP_MAX_LINK_BYTES_PER_CYCLE (1u << 20)
#define NP_MAX_MACS_PER_INFERENCE ((uint64_t)1 << 52)
/* One tile's iteration: its MACs and vector operations. */
#define NP_MAX_ITER_WORK ((uint64_t)1 << 38)
/* One core.wait. */
#define NP_MAX_WAIT_CYCLES ((int64_t)1 << 40)
/** Activations (operand and result elements, summed over every tile) the
 * simulator holds: 512 MiB of int8. It keeps each tile's operands whole (the
 * chip keeps only the rows a window reads), so a VGG whose 224x224 layers are
 * cut into many row bands and channel slices needs more than the 192 MiB of
 * a real 16x16 chip's SRAM (VGG-19 at 4 bits: about 300 MiB). */
#define NP_MAX_ACTIVATIONS ((int64_t)1 << 29)
/** Elements of one operand or result tensor (each dimension too): the
 * loader's bound, which the printer checks so nc-compile never writes a
 * tensor nc-run refuses. */
#define NP_MAX_TENSOR_ELEMENTS ((int64_t)1 << 24)
/* The tile flags this version knows. */
#define NP_KNOWN_FLAGS \
  ((uint32_t)(NP_FLAG_RELU | NP_FLAG_SUBTRACT | NP_FLAG_COUNT_PAD | NP_FLAG_PARTIAL | NP_FLAG_REDUCE |             \
              NP_FLAG_PAD_REFLECT | NP_FLAG_PAD_EDGE | NP_FLAG_PAD_WRAP | NP_FLAG_REPLICA | NP_FLAG_SHARED |         \
              NP_FLAG_RECV_OFFSETS | NP_FLAG_CLAMP | NP_FLAG_IN_AFFINE | NP_FLAG_PACKED_WEIGHTS))
/* The most tiles sharing one core (NC_CORE_MAX_SLOTS). */
#define NP_MAX_SLOTS 64u
/* The most tiles one reducer adds the partial sums of. */
#define NP_MAX_PARTIALS 4096u

/** Whether a layer width (bits, the tile record's flags >> NP_WIDTH_SHIFT) is one northpole runs. */
static inline bool np_width_ok(uint64_t bits)
{
  return bits == 8 || bits == 4 || bits == 2;
}

/** Checks the chip fields against their ranges; on failure writes which
 * field and its bound into why[0..n) and returns false. */
static inline bool np_chip_fields_ok(uint64_t rows, uint64_t cols, uint64_t clock_hz, uint64_t sram_bytes,
                                     uint64_t macs_per_cycle, uint64_t hop_latency_cycles,
                                     uint64_t link_bytes_per_cycle, uint64_t macs_per_inference, char *why, size_t n)
{
  if (!rows || rows > NP_MAX_GRID_SIDE || !cols || cols > NP_MAX_GRID_SIDE)
    return snprintf(why, n, "grid %llux%llu (each side must be 1 to %u)", (unsigned long long)cols,
                    (unsigned long long)rows, NP_MAX_GRID_SIDE), false;
  if (!clock_hz || !sram_bytes || sram_bytes > UINT32_MAX || !link_bytes_per_cycle)
    return snprintf(why, n, "clock_hz, sram_bytes (at most 2^32-1) and link_bytes_per_cycle must be at least 1"),
           false;
  if (!macs_per_cycle || macs_per_cycle > NP_MAX_MACS_PER_CYCLE)
    return snprintf(why, n, "macs_per_cycle %llu is outside [1, 2^24]", (unsigned long long)macs_per_cycle), false;
  if (hop_latency_cycles > NP_MAX_HOP_LATENCY_CYCLES)
    return snprintf(why, n, "hop_latency_cycles %llu is larger than 2^20", (unsigned long long)hop_latency_cycles),
           false;
  if (link_bytes_per_cycle > NP_MAX_LINK_BYTES_PER_CYCLE)
    return snprintf(why, n, "link_bytes_per_cycle %llu is larger than 2^20", (unsigned long long)link_bytes_per_cycle),
           false;
  if (macs_per_inference > NP_MAX_MACS_PER_INFERENCE)
    return snprintf(why, n, "macs_per_inference %llu is larger than 2^52", (unsigned long long)macs_per_inference),
           false;
  return true;
}

/** a + b, saturated at UINT64_MAX (simulated time never wraps). */
static inline uint64_t np_sat_add(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

#endif
