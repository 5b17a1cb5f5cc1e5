/* dominance.h: dominator trees of the blocks of a region (CFG regions). */
#ifndef NC_IR_DOMINANCE_H
#define NC_IR_DOMINANCE_H

#include "nc/ir/ops.h"

/** The dominator tree of one region's blocks. */
typedef struct nc_dominance nc_dominance;

/** Computes the dominator tree of `r` (blocks unreachable from the entry
 * have no dominator and are reported as unreachable). */
NC_GIVE nc_dominance *nc_dominance_create(NC_KEEP nc_region *r);
void nc_dominance_destroy(NC_TAKE nc_dominance *d);
/** True if `b` is reachable from the region's entry. */
bool nc_dominance_is_reachable(NC_KEEP const nc_dominance *d, NC_KEEP const nc_block *b);
/** True if block `a` dominates block `b` (a block dominates itself). */
bool nc_dominance_dominates(NC_KEEP const nc_dominance *d, NC_KEEP const nc_block *a, NC_KEEP const nc_block *b);
/** Immediate dominator of `b` (NULL for the entry and unreachable blocks). */
NC_KEEP nc_block *nc_dominance_get_idom(NC_KEEP const nc_dominance *d, NC_KEEP const nc_block *b);
/** Children of `b` in the dominator tree, in reverse post-order. */
size_t nc_dominance_get_num_children(NC_KEEP const nc_dominance *d, NC_KEEP const nc_block *b);
NC_KEEP nc_block *nc_dominance_get_child(NC_KEEP const nc_dominance *d, NC_KEEP const nc_block *b, size_t i);

#endif
