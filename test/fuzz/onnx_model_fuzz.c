/* onnx_model_fuzz.c: libFuzzer target for the ONNX model loader.
 *
 * Feeds arbitrary bytes to nc_onnx_model_load_from_memory() (no base
 * directory, so external data is refused) and, for inputs that load,
 * converts every initializer and Constant tensor to a host tensor and back:
 * a model that passes validation must never make later code misbehave.
 * Also feeds the same bytes to the tensor .pb reader.
 * Build: clang -fsanitize=fuzzer,address,undefined with the ONNX layer, its
 * protobuf-c code and -lprotobuf-c; seeds are in corpus/onnx_model/.
 */
#include "../../dialects/graph/onnx/onnx_proto.h" /* private: protobuf-c structs */

#include <string.h>

static void convert(const Onnx__TensorProto *t)
{
  char err[512];
  nc_tensor *h = nc_onnx_tensor_to_host(t, err, sizeof err);
  if (!h)
    return;
  Onnx__TensorProto *back = nc_onnx_tensor_from_host(h, t->name);
  nc_tensor *again = nc_onnx_tensor_to_host(back, err, sizeof err);
  if (!again || memcmp(again->data, h->data, nc_tensor_num_bytes(h)))
    __builtin_trap(); /* host -> proto -> host must be the identity */
  nc_tensor_destroy(again);
  nc_onnx_tensor_proto_destroy(back);
  nc_tensor_destroy(h);
}

static void walk_graph(const Onnx__GraphProto *g)
{
  for (size_t i = 0; i < g->n_initializer; i++)
    convert(g->initializer[i]);
  for (size_t i = 0; i < g->n_node; i++) {
    const Onnx__NodeProto *n = g->node[i];
    for (size_t j = 0; j < n->n_attribute; j++) {
      const Onnx__AttributeProto *a = n->attribute[j];
      if (a->t)
        convert(a->t);
      for (size_t k = 0; k < a->n_tensors; k++)
        convert(a->tensors[k]);
      if (a->g)
        walk_graph(a->g);
      for (size_t k = 0; k < a->n_graphs; k++)
        walk_graph(a->graphs[k]);
    }
  }
  for (size_t i = 0; i < g->n_input; i++) {
    int64_t dims[NC_TENSOR_MAX_RANK];
    (void)nc_onnx_value_info_get_shape(g->input[i], dims, NC_TENSOR_MAX_RANK);
    (void)nc_onnx_value_info_get_elem_type(g->input[i]);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
  char err[1024];
  nc_onnx_model *m = nc_onnx_model_load_from_memory(data, size, NULL, err, sizeof err);
  if (m) {
    walk_graph(m->proto->graph);
    (void)nc_onnx_model_get_opset(m, "");
    nc_onnx_model_destroy(m);
  } else if (!err[0] || strchr(err, '\n')) {
    __builtin_trap(); /* every refusal carries a one-line message */
  }
  nc_tensor *t = nc_onnx_pb_read_from_memory(data, size, "fuzz.pb", NULL, err, sizeof err);
  nc_tensor_destroy(t);
  return 0;
}
