/* mapping.h: how the xbar target lays a pipeline's layers onto crossbar
 * cores (mapping.c has the algorithm and its limits). Plain data in and
 * out, so it is unit-tested without IR. */
#ifndef NC_TARGETS_XBAR_MAPPING_H
#define NC_TARGETS_XBAR_MAPPING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nc/support/base.h"

/** One stage of the pipeline, in pipeline order. */
typedef struct xbar_map_stage {
  /* in */
  bool mvm;              /**< a conv or matmul on crossbars (else a digital-unit stage) */
  int64_t rows, cols;    /**< the weight matrix: inputs x outputs (mvm only) */
  int64_t iterations;    /**< MVMs per inference (one per output pixel; 1 for a matmul) */
  /* out */
  int64_t row_tiles, col_tiles, replicas;
  int64_t n_cores;       /**< replicas x row_tiles x col_tiles, or 1 */
  NC_GIVE int64_t *cores; /**< core indices (y * mesh_cols + x), [replica][row tile][col tile]; malloc'ed */
} xbar_map_stage;

/** Maps `n` stages onto a mesh of mesh_rows x mesh_cols cores with one
 * xbar_rows x xbar_cols crossbar each: tiles every matrix, replicates
 * greedily with the spare cores, places the cores. False with a message in
 * err when the pipeline does not fit even without replication. */
bool xbar_map_plan(xbar_map_stage *stages, size_t n, int64_t xbar_rows, int64_t xbar_cols, int64_t mesh_rows,
                   int64_t mesh_cols, char *err, size_t errlen);

/** Frees the cores arrays of a plan. */
void xbar_map_clear(xbar_map_stage *stages, size_t n);

/** The mesh core at position i of the placement order (a serpentine over
 * rows, so that consecutive cores are neighbours): y * mesh_cols + x. */
int64_t xbar_map_core_at(int64_t i, int64_t mesh_cols);

#endif
