/* onnx.h: ONNX models in and out of the graph dialect.
 *
 * Import turns an ONNX model (opsets 1 to 21 of the default domain) into a
 * builtin.module holding one func.func of graph ops: graph inputs become
 * the function's arguments, initializers and Constant nodes become
 * graph.constant ops holding dense_resource blobs, every other node one graph
 * op (or none: Dropout and Identity vanish, and nodes whose inputs are known
 * at import time, such as the Shape/Gather/Concat chains of PyTorch exports,
 * are evaluated and their results kept as constants or attributes). Locations
 * carry the ONNX names: `loc("<node name>")` on ops, `loc("<tensor name>")`
 * on constants and arguments.
 *
 * Export writes such a function back as an ONNX model of opset 13, 17 or 19
 * (by default 17, or 19 when the function has a wrap pad):
 * graph.constant ops become initializers and each graph op one node, named
 * from the locations.
 *
 * Errors are reported as diagnostics through the context (for import: at a
 * location `"<file>":0:0`, wrapped in the node's name when a node is at
 * fault, with messages such as "node 'Resize_12': op type 'Resize' (opset 13)
 * is not supported"); the functions then return NULL or false.
 */
#ifndef NC_DIALECTS_GRAPH_ONNX_H
#define NC_DIALECTS_GRAPH_ONNX_H

#include "nc/ir/ops.h"
#include "nc/support/tensor.h"

/** Oldest and newest default-domain opsets the importer understands. */
#define NC_ONNX_IMPORT_MIN_OPSET 1
#define NC_ONNX_IMPORT_MAX_OPSET 21

/* --- ONNX models (loaded and validated protobufs) --------------------------- */

/** A loaded, validated ONNX model (its protobuf-c structs are private to the
 * importer: dialects/graph/onnx/onnx_proto.h). */
typedef struct nc_onnx_model nc_onnx_model;

/** Loads and validates the model at `path`; external data is resolved
 * relative to the file's directory. NULL + message on failure. */
NC_GIVE nc_onnx_model *nc_onnx_model_load(NC_KEEP const char *path, char *err, size_t errlen);

/** Loads and validates a serialized ModelProto held in memory. External data
 * is resolved relative to `base_dir`; if base_dir is NULL, a model using
 * external data is refused. The buffer is not retained. */
NC_GIVE nc_onnx_model *nc_onnx_model_load_from_memory(NC_KEEP const void *buf, size_t len,
                                                      NC_KEEP const char *base_dir, char *err, size_t errlen);

/** Frees the model and every protobuf struct in it; NULL is allowed. */
void nc_onnx_model_destroy(NC_TAKE nc_onnx_model *m);

/** The opset version imported for `domain` ("" or "ai.onnx" for the default
 * domain), or -1 if the model does not import it. */
int64_t nc_onnx_model_get_opset(NC_KEEP const nc_onnx_model *m, NC_KEEP const char *domain);
/** Whether the model has an opset_import entry for `domain` (whatever its
 * version). */
bool nc_onnx_model_has_opset(NC_KEEP const nc_onnx_model *m, NC_KEEP const char *domain);

/** Reads a .pb file holding one serialized TensorProto (as in ONNX's
 * test_data_set_N/input_M.pb). If `name` is not NULL, *name receives the
 * tensor's name (NC_GIVE: free() it; "" if it has none). NULL + message. */
NC_GIVE nc_tensor *nc_onnx_pb_read(NC_KEEP const char *path, char **name, char *err, size_t errlen);

/** nc_onnx_pb_read() from memory; `label` (may be NULL) names the input in
 * messages. */
NC_GIVE nc_tensor *nc_onnx_pb_read_from_memory(NC_KEEP const void *buf, size_t len, NC_KEEP const char *label,
                                               char **name, char *err, size_t errlen);

/** Writes `t` as a serialized TensorProto named `name` (may be NULL) to
 * `path`. Returns false + message on failure (a partial file is removed). */
bool nc_onnx_pb_write(NC_KEEP const char *path, NC_KEEP const nc_tensor *t, NC_KEEP const char *name,
                      char *err, size_t errlen);

/* --- import and export ---------------------------------------------------- */

/** Imports the model at `path` (external data is read relative to its
 * directory). Returns a detached builtin.module owned by the caller, or NULL
 * after emitting diagnostics. The module is not verified. */
NC_GIVE nc_op *nc_onnx_import_file(nc_context *ctx, NC_KEEP const char *path);

/** Imports a serialized ModelProto held in memory. `label` names it in
 * diagnostics (NULL: "<memory>"); external data is resolved relative to
 * `base_dir`, or refused if base_dir is NULL. The buffer is not retained. */
NC_GIVE nc_op *nc_onnx_import_from_memory(nc_context *ctx, NC_KEEP const void *buf, size_t len,
                                          NC_KEEP const char *label, NC_KEEP const char *base_dir);

/** Imports an already loaded and validated model; `label` names it in
 * diagnostics (NULL: the model's path, or "<memory>"). */
NC_GIVE nc_op *nc_onnx_import_model(nc_context *ctx, NC_KEEP const nc_onnx_model *model, NC_KEEP const char *label);

/** Options of the exporter; the all-zero value means the defaults. */
typedef struct nc_onnx_export_options {
  int64_t opset;         /**< default-domain opset written: 13, 17 or 19 (0: 17, or 19 when the function needs it) */
  const char *func_name; /**< function to export (NULL: the module's only func.func) */
} nc_onnx_export_options;

/** Exports the graph-dialect function of `module` (a builtin.module, or a
 * func.func itself) as a serialized ONNX ModelProto. Returns a malloc'ed
 * buffer of *len bytes, or NULL after emitting diagnostics at the offending
 * op. `opts` may be NULL. */
NC_GIVE void *nc_onnx_export_to_memory(NC_KEEP nc_op *module, NC_KEEP const nc_onnx_export_options *opts,
                                       size_t *len);

/** Exports as nc_onnx_export_to_memory() and writes the model to `path`
 * ("-" for stdout). Returns false after emitting diagnostics. */
bool nc_onnx_export_file(NC_KEEP nc_op *module, NC_KEEP const char *path, NC_KEEP const nc_onnx_export_options *opts);

#endif
