/* graph_pictures.h: Graphviz pictures of a compiled network above the op
 * level: the dataflow graph (nodes with their iteration domains and input
 * buffers) and the placement on the chip (tiles at their mesh position with
 * the traffic between them). view-op-graph{level=dataflow|core} writes them
 * and nc-compile --report renders them to SVG (docs/reports.md).
 */
#ifndef NC_PASSES_GRAPH_PICTURES_H
#define NC_PASSES_GRAPH_PICTURES_H

#include <stdbool.h>
#include <stdio.h>

#include "nc/ir/ops.h"

/** Writes the dataflow.nodes of every function of `module` (or of the
 * function `module` is) as a Graphviz digraph to `out`: one box per node
 * (name, layer kind, iteration domain, MACs per inference, the buffer each
 * input needs in elements), an edge from producer to consumer labelled with
 * the channel's tensor type, the host's inputs and outputs as ellipses.
 * False, writing nothing, when there is no dataflow.node. */
bool nc_graph_picture_dataflow(NC_KEEP nc_op *module, FILE *out);

/** Writes the placement of the first core.chip in `module` as a Graphviz
 * graph to `out` for neato's fixed positions (`dot -Tsvg` honours the
 * graph's layout=neato): one box per tile at its (x, y) (node name, SRAM
 * bytes its buffers use), coloured per dataflow node, and an edge per pair
 * of tiles that exchange data, labelled with the bytes sent per inference
 * (the host as one node left of the mesh). False, writing nothing, when
 * there is no core.chip. */
bool nc_graph_picture_cores(NC_KEEP nc_op *module, FILE *out);

#endif
