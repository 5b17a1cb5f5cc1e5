/* dataflow_layers.h: what graph-to-dataflow knows about graph ops: the
 * iteration domain and access relations of a layer (isl) and its layer kind
 * and parameters (nc/dialects/dataflow/layer.h), read from the graph ops it
 * groups, plus the function's I/O quantization. These live in passes/
 * because they read graph ops; no dialect below the graph level, and no
 * target, does.
 */
#ifndef NC_PASSES_DATAFLOW_LAYERS_H
#define NC_PASSES_DATAFLOW_LAYERS_H

#include "nc/dialects/dataflow/dataflow.h"
#include "nc/dialects/dataflow/layer.h"

/** Describes the layer whose main op is `layer_op` (conv, conv_integer,
 * qlinear_conv, matmul, matmul_integer, qlinear_matmul, gemm, max_pool,
 * avg_pool, global pools, add and other elementwise ops, concat, flatten,
 * reshape), reading the node inputs `inputs` (the non-constant values the
 * group uses, in order: input i is In<i>) and producing `output`, at
 * granularity `g`, with deps.h's builders where they apply and isl text
 * otherwise. The ops after `layer_op` in a group (requantize, bias add,
 * activation) act elementwise on its output and do not change the
 * description. Sets desc->name_hint ("conv", "pool", "flatten", ...) and
 * leaves desc->kind NULL (nc_dataflow_record_layer sets the kind). Returns
 * false with a message in err on unsupported ops or shapes. */
bool nc_dataflow_describe_layer(NC_KEEP nc_op *layer_op, size_t n_inputs, NC_KEEP nc_value *const *inputs,
                                NC_KEEP nc_value *output, nc_deps_granularity g, isl_ctx *ctx,
                                nc_dataflow_layer_desc *desc, char *err, size_t errlen);

/** Whether nc_dataflow_describe_layer's description of `layer_op` may
 * depend on its attributes: false for the elementwise ops (add, add_integer,
 * mul, ...; not concat), whose description reads only the types and which
 * operand is which input. Callers that share descriptions between equal
 * ops (graph-to-dataflow) leave the attributes out of the comparison
 * then. */
bool nc_dataflow_describe_reads_attrs(NC_KEEP nc_op *layer_op);

/** Reads the layer a freshly wrapped node computes from the graph ops of its
 * region (the main op, then the requantize, bias add and relu after it) and
 * records it on the node (nc_dataflow_node_set_layer). Weights, bias and
 * multipliers are the constants' own attributes where their layout is the
 * layer's (a gemm with trans_b gets transposed weights). Emits an error at
 * the op that the layer cannot express exactly and returns false. */
bool nc_dataflow_record_layer(nc_op *node);

/** Records on `func` (its `dataflow.io` attribute) the network inputs (the
 * arguments a graph.quantize_linear quantizes) and outputs (the results a
 * graph.dequantize_linear dequantizes) with their scale, zero point and
 * width. Arguments and results without such an op get no record. Emits an
 * error and returns false when a quantize_linear / dequantize_linear at the
 * boundary has a scale or zero point that is not a constant scalar. */
bool nc_dataflow_record_io(nc_op *func);

#endif
