/* onnx_proto.h: the low-level ONNX protobuf layer of the graph dialect
 * (private to dialects/graph/onnx/ and its tests: it exposes protobuf-c's
 * generated structs, which are not part of nc's installed API; the public
 * part, models as opaque handles and .pb tensor files, is in
 * nc/dialects/graph/onnx.h).
 *
 * Loads ONNX models with protobuf-c (code generated at build time from
 * Debian's onnx.proto) and validates them once, thoroughly, so that the
 * importer can walk the protobuf-c structs without re-checking: every
 * TensorProto has a known data type, sane dims and exactly as much data as
 * its dims need; external data is loaded into raw_data; graph inputs and
 * outputs are typed; nesting depth is bounded. It also converts tensors
 * between TensorProto and the host nc_tensor, and reads/writes the
 * single-tensor .pb files of ONNX's test data sets.
 *
 * Errors are reported as one line in a caller buffer (err, errlen; err may
 * be NULL), naming the offending object, e.g.
 *   model.onnx: initializer 'conv1.weight': raw_data has 100 bytes, dims [16,1,3,3] of FLOAT need 576
 *
 * Assumes a little-endian host (ONNX raw_data is little-endian).
 */
#ifndef NC_DIALECTS_GRAPH_ONNX_PROTO_H
#define NC_DIALECTS_GRAPH_ONNX_PROTO_H

#include "nc/dialects/graph/onnx.h"
#include "nc/support/tensor.h"
#include "onnx.pb-c.h"

/** TensorProto.DataType values. Debian's onnx.proto (ONNX 1.12) stops at
 * BFLOAT16; the later ones are spelled out from newer ONNX releases because
 * data_type is a plain int32 on the wire and newer models use them. */
typedef enum nc_onnx_data_type {
  NC_ONNX_UNDEFINED = 0, NC_ONNX_FLOAT = 1, NC_ONNX_UINT8 = 2, NC_ONNX_INT8 = 3,
  NC_ONNX_UINT16 = 4, NC_ONNX_INT16 = 5, NC_ONNX_INT32 = 6, NC_ONNX_INT64 = 7,
  NC_ONNX_STRING = 8, NC_ONNX_BOOL = 9, NC_ONNX_FLOAT16 = 10, NC_ONNX_DOUBLE = 11,
  NC_ONNX_UINT32 = 12, NC_ONNX_UINT64 = 13, NC_ONNX_COMPLEX64 = 14, NC_ONNX_COMPLEX128 = 15,
  NC_ONNX_BFLOAT16 = 16, NC_ONNX_FLOAT8E4M3FN = 17, NC_ONNX_FLOAT8E4M3FNUZ = 18,
  NC_ONNX_FLOAT8E5M2 = 19, NC_ONNX_FLOAT8E5M2FNUZ = 20, NC_ONNX_UINT4 = 21, NC_ONNX_INT4 = 22,
  NC_ONNX_FLOAT4E2M1 = 23, NC_ONNX_FLOAT8E8M0 = 24, NC_ONNX_UINT2 = 25, NC_ONNX_INT2 = 26,
  NC_ONNX_DATA_TYPE_COUNT
} nc_onnx_data_type;

/** Deepest protobuf message nesting a model may have (protobuf-c's unpacker
 * recurses without a limit, so deeper input is refused before unpacking). */
#define NC_ONNX_MAX_NESTING 64

/** A loaded, validated ONNX model.
 *
 * After loading, the importer may rely on the following in every graph
 * (main graph, subgraphs in attributes, functions, training graphs):
 *  - every TensorProto passes nc_onnx_tensor_check() and has no external
 *    data left (it was read into raw_data);
 *  - graph, node, attribute, value-info and tensor names, node op_type and
 *    domain are non-NULL strings (absent ones are ""); op_type, attribute
 *    names, initializer names and graph input/output names are non-empty;
 *  - every attribute has has_type set to a known type (inferred from the
 *    value for IR version 1 models) and a non-NULL t/g/sparse_tensor/tp
 *    when its type says so; references (ref_attr_name) are left as they are;
 *  - main-graph inputs and outputs have a type; every tensor type present
 *    has a known elem_type and non-negative dim_values;
 *  - sparse tensors have values/indices of consistent shapes and in-range
 *    INT64 indices. */
struct nc_onnx_model {
  Onnx__ModelProto *proto; /**< owned; the model, walk proto->graph */
  char *path;              /**< owned; the file loaded, NULL if from memory */
  /* A model loaded from a file maps it: the main graph's initializers'
   * raw_data point into the mapping (`mapped` lists them), not into copies.
   * `share` counts who holds the mapping: the model and every resource that
   * borrows an initializer's bytes (nc_onnx_model_borrow_tensor); the last
   * one to let go unmaps it. */
  void *map;
  size_t map_len;
  struct nc_onnx_map *share;
  Onnx__TensorProto **mapped;
  size_t n_mapped;
};


/** The initializer of `g` named `name`, or NULL. Linear search. */
NC_KEEP const Onnx__TensorProto *nc_onnx_graph_find_initializer(NC_KEEP const Onnx__GraphProto *g,
                                                                NC_KEEP const char *name);

/** The attribute of `node` named `name`, or NULL. */
NC_KEEP const Onnx__AttributeProto *nc_onnx_node_find_attribute(NC_KEEP const Onnx__NodeProto *node,
                                                                NC_KEEP const char *name);

/** The element type of a tensor-typed value info, or NC_ONNX_UNDEFINED if
 * it has no tensor type. */
int32_t nc_onnx_value_info_get_elem_type(NC_KEEP const Onnx__ValueInfoProto *vi);

/** The shape of a tensor-typed value info: returns its rank and stores up
 * to `max_rank` dims into `dims` (-1 for symbolic or unknown dims), or
 * returns -1 if the value has no tensor type or no shape at all. */
int nc_onnx_value_info_get_shape(NC_KEEP const Onnx__ValueInfoProto *vi, int64_t *dims, int max_rank);

/** Upper-case ONNX name of a data type ("FLOAT", "INT4", ...), or "?"
 * for unknown values; NC_KEEP static string. */
const char *nc_onnx_data_type_name(int32_t data_type);

/** The nc dtype holding ONNX `data_type`; false for types nc has none for
 * (STRING, COMPLEX*, FLOAT8*, FLOAT4E2M1) and unknown values. */
bool nc_onnx_data_type_to_dtype(int32_t data_type, nc_dtype *dtype);

/** The ONNX data type of nc dtype `dt` (every nc dtype has one). */
int32_t nc_onnx_data_type_from_dtype(nc_dtype dt);

/** Number of elements of `t` (1 for rank 0), or -1 if a dim is negative or
 * the count overflows. */
int64_t nc_onnx_tensor_get_num_elements(NC_KEEP const Onnx__TensorProto *t);

/** Bytes of raw_data that `t`'s dims and data type need (sub-byte types
 * packed, rounded up to whole bytes), or -1 for STRING, unknown data types
 * and invalid dims. */
int64_t nc_onnx_tensor_get_num_bytes(NC_KEEP const Onnx__TensorProto *t);

/** Checks one TensorProto: known data_type, non-negative dims whose element
 * count does not overflow, not segmented, not external, and exactly one
 * data source (raw_data, or the typed field ONNX prescribes for the type)
 * holding exactly the amount of data the dims need. `what` names the tensor
 * in the message ("initializer 'w'"). Returns false + message otherwise. */
bool nc_onnx_tensor_check(NC_KEEP const Onnx__TensorProto *t, NC_KEEP const char *what,
                          char *err, size_t errlen);

/** Converts a TensorProto (checked with nc_onnx_tensor_check first) to a
 * host tensor. FLOAT16/BFLOAT16 stay 16-bit; INT4/UINT4 and INT2/UINT2 are
 * unpacked from ONNX's packing (low bits first) to one element per byte;
 * BOOL becomes 0/1. Types without an nc dtype and ranks above
 * NC_TENSOR_MAX_RANK are refused. NULL + message on failure. */
NC_GIVE nc_tensor *nc_onnx_tensor_to_host(NC_KEEP const Onnx__TensorProto *t, char *err, size_t errlen);

/** Like nc_onnx_tensor_to_host for a tensor of `m`; if its bytes lie in
 * m's mapping of the file, they are copied in pieces and each piece's pages
 * are given back to the kernel after it is copied, so a large initializer
 * never holds twice its size (the bytes stay readable: the pages come back
 * from the file if read again). */
NC_GIVE nc_tensor *nc_onnx_model_tensor_to_host(NC_KEEP const nc_onnx_model *m,
                                                NC_KEEP const Onnx__TensorProto *t, char *err, size_t errlen);

/** The bytes of initializer `t` of `m`, borrowed from m's mapping of the
 * file without a copy, when that mapping holds them exactly as a host
 * tensor of dtype *dt would (raw little-endian data of a type of 8 bits or
 * more, not bool) at an address aligned to the element size; NULL
 * otherwise. On success *nbytes is their size and *ref a new reference to
 * the mapping, which the caller lets go of with nc_onnx_map_release
 * (*ref, data, size): the mapping stays until the model is destroyed and
 * every reference let go of. */
NC_KEEP const void *nc_onnx_model_borrow_tensor(NC_KEEP const nc_onnx_model *m, NC_KEEP const Onnx__TensorProto *t,
                                                nc_dtype *dt, size_t *nbytes, void **ref);

/** Lets go of a reference nc_onnx_model_borrow_tensor gave (`ref`); the
 * shape of an nc_resource_release_fn, so a resource can hold the reference
 * (data and size are not used). */
void nc_onnx_map_release(NC_TAKE void *ref, NC_KEEP const void *data, size_t size);

/** Builds a TensorProto holding `t` in raw_data (sub-byte types packed as
 * ONNX prescribes). `name` may be NULL. Free with nc_onnx_tensor_proto_destroy(). */
NC_GIVE Onnx__TensorProto *nc_onnx_tensor_from_host(NC_KEEP const nc_tensor *t, NC_KEEP const char *name);

/** Frees a TensorProto made by nc_onnx_tensor_from_host() or unpacked by
 * protobuf-c with the default allocator; NULL is allowed. */
void nc_onnx_tensor_proto_destroy(NC_TAKE Onnx__TensorProto *t);

#endif
