/* onnx_proto_internal.h: message helpers that the ONNX protobuf layer
 * (onnx_load.c, onnx_tensor.c) and the importer share and
 * onnx_proto.h does not declare. Include only from
 * dialects/graph/onnx/. */
#ifndef NC_DIALECTS_GRAPH_ONNX_PROTO_INTERNAL_H
#define NC_DIALECTS_GRAPH_ONNX_PROTO_INTERNAL_H

#include "onnx_proto.h"

/** Copies a name from a model into buf (n bytes) for a message: control
 * bytes as '?', cut with "..." to fit; returns buf. */
const char *onnx_clean_name(NC_KEEP const char *s, char *buf, size_t n);

/** Writes a tensor's shape and type for a message into out, e.g.
 * "dims [16,1,3,3] of FLOAT". */
void onnx_describe_tensor(NC_KEEP const Onnx__TensorProto *t, char *out, size_t outlen);

#endif
