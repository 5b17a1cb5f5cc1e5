/* onnx_proto_test.c: unit tests of the ONNX protobuf layer (onnx_proto.h).
 *
 * Models are built in C with protobuf-c, packed, and loaded back: a good
 * model must load with the guarantees onnx_proto.h promises, and each kind
 * of corruption must be refused with a message naming the culprit. Also
 * covers TensorProto <-> nc_tensor for every dtype and storage field,
 * external data (including escapes from the model directory), tensor .pb
 * files, and every model and test data set of ONNX's own backend tests in
 * ../shared/onnx-tests (skipped if absent). Runs from test/unit/.
 */
#include "../../dialects/graph/onnx/onnx_proto.h" /* private: protobuf-c structs */

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

/* ---- a small model built from stack structs ------------------------------ */

/* x[1,N] (FLOAT) -> Add(x, Constant c0) -> y[1,3]; initializer conv1.weight. */
typedef struct fixture {
  Onnx__ModelProto model;
  Onnx__OperatorSetIdProto opset, *opsets[1];
  Onnx__GraphProto graph;
  Onnx__TensorProto weight, cval, *inits[1];
  float weight_data[144];
  int64_t weight_dims[4], cval_dims[1], cval_data[3];
  Onnx__ValueInfoProto in, out, *ins[1], *outs[1];
  Onnx__TypeProto in_t, out_t;
  Onnx__TypeProto__Tensor in_tt, out_tt;
  Onnx__TensorShapeProto in_s, out_s;
  Onnx__TensorShapeProto__Dimension d[4], *in_d[2], *out_d[2];
  Onnx__NodeProto cnode, add, *nodes[2];
  Onnx__AttributeProto value, *cattrs[1];
  char *add_in[2], *add_out[1], *c_out[1];
} fixture;

static void fixture_init(fixture *f)
{
  memset(f, 0, sizeof *f);
  f->model = (Onnx__ModelProto)ONNX__MODEL_PROTO__INIT;
  f->model.has_ir_version = 1;
  f->model.ir_version = 8;
  f->opset = (Onnx__OperatorSetIdProto)ONNX__OPERATOR_SET_ID_PROTO__INIT;
  f->opset.domain = "";
  f->opset.has_version = 1;
  f->opset.version = 13;
  f->opsets[0] = &f->opset;
  f->model.n_opset_import = 1;
  f->model.opset_import = f->opsets;
  f->model.graph = &f->graph;

  f->graph = (Onnx__GraphProto)ONNX__GRAPH_PROTO__INIT;
  f->graph.name = "main";
  f->weight = (Onnx__TensorProto)ONNX__TENSOR_PROTO__INIT;
  f->weight.name = "conv1.weight";
  f->weight.has_data_type = 1;
  f->weight.data_type = NC_ONNX_FLOAT;
  int64_t wd[4] = {16, 1, 3, 3};
  memcpy(f->weight_dims, wd, sizeof wd);
  f->weight.n_dims = 4;
  f->weight.dims = f->weight_dims;
  for (int i = 0; i < 144; i++)
    f->weight_data[i] = (float)i * 0.5f - 7.0f;
  f->weight.has_raw_data = 1;
  f->weight.raw_data.len = sizeof f->weight_data;
  f->weight.raw_data.data = (uint8_t *)f->weight_data;
  f->inits[0] = &f->weight;
  f->graph.n_initializer = 1;
  f->graph.initializer = f->inits;

  for (int i = 0; i < 4; i++) {
    f->d[i] = (Onnx__TensorShapeProto__Dimension)ONNX__TENSOR_SHAPE_PROTO__DIMENSION__INIT;
    f->d[i].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    f->d[i].dim_value = i == 3 ? 3 : 1;
  }
  f->d[1].value_case = ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
  f->d[1].dim_param = "N";
  f->in_d[0] = &f->d[0], f->in_d[1] = &f->d[1], f->out_d[0] = &f->d[2], f->out_d[1] = &f->d[3];
  Onnx__ValueInfoProto *vis[2] = {&f->in, &f->out};
  Onnx__TypeProto *tps[2] = {&f->in_t, &f->out_t};
  Onnx__TypeProto__Tensor *tts[2] = {&f->in_tt, &f->out_tt};
  Onnx__TensorShapeProto *ss[2] = {&f->in_s, &f->out_s};
  for (int i = 0; i < 2; i++) {
    *vis[i] = (Onnx__ValueInfoProto)ONNX__VALUE_INFO_PROTO__INIT;
    vis[i]->name = i ? "y" : "x";
    vis[i]->type = tps[i];
    *tps[i] = (Onnx__TypeProto)ONNX__TYPE_PROTO__INIT;
    tps[i]->value_case = ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE;
    tps[i]->tensor_type = tts[i];
    *tts[i] = (Onnx__TypeProto__Tensor)ONNX__TYPE_PROTO__TENSOR__INIT;
    tts[i]->has_elem_type = 1;
    tts[i]->elem_type = NC_ONNX_FLOAT;
    tts[i]->shape = ss[i];
    *ss[i] = (Onnx__TensorShapeProto)ONNX__TENSOR_SHAPE_PROTO__INIT;
    ss[i]->n_dim = 2;
    ss[i]->dim = i ? f->out_d : f->in_d;
  }
  f->ins[0] = &f->in, f->outs[0] = &f->out;
  f->graph.n_input = 1, f->graph.input = f->ins;
  f->graph.n_output = 1, f->graph.output = f->outs;

  f->cval = (Onnx__TensorProto)ONNX__TENSOR_PROTO__INIT;
  f->cval.has_data_type = 1;
  f->cval.data_type = NC_ONNX_INT64;
  f->cval_dims[0] = 3;
  f->cval.n_dims = 1, f->cval.dims = f->cval_dims;
  f->cval_data[0] = -1, f->cval_data[1] = 0, f->cval_data[2] = 1LL << 40;
  f->cval.n_int64_data = 3, f->cval.int64_data = f->cval_data;
  f->value = (Onnx__AttributeProto)ONNX__ATTRIBUTE_PROTO__INIT;
  f->value.name = "value";
  f->value.has_type = 1;
  f->value.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
  f->value.t = &f->cval;
  f->cattrs[0] = &f->value;
  f->cnode = (Onnx__NodeProto)ONNX__NODE_PROTO__INIT;
  f->cnode.name = "c0";
  f->cnode.op_type = "Constant";
  f->cnode.n_attribute = 1, f->cnode.attribute = f->cattrs;
  f->c_out[0] = "c";
  f->cnode.n_output = 1, f->cnode.output = f->c_out;
  f->add = (Onnx__NodeProto)ONNX__NODE_PROTO__INIT; /* unnamed on purpose */
  f->add.op_type = "Add";
  f->add_in[0] = "x", f->add_in[1] = "c", f->add_out[0] = "y";
  f->add.n_input = 2, f->add.input = f->add_in;
  f->add.n_output = 1, f->add.output = f->add_out;
  f->nodes[0] = &f->cnode, f->nodes[1] = &f->add;
  f->graph.n_node = 2, f->graph.node = f->nodes;
}

static uint8_t *pack_model(const Onnx__ModelProto *m, size_t *len)
{
  *len = onnx__model_proto__get_packed_size(m);
  uint8_t *buf = malloc(*len ? *len : 1);
  onnx__model_proto__pack(m, buf);
  return buf;
}

static nc_onnx_model *load_packed(const Onnx__ModelProto *m, const char *base_dir, char *err, size_t errlen)
{
  size_t len;
  uint8_t *buf = pack_model(m, &len);
  nc_onnx_model *r = nc_onnx_model_load_from_memory(buf, len, base_dir, err, errlen);
  free(buf);
  return r;
}

/* Loading must fail with a one-line message containing `want`. */
static void expect_model_error(const Onnx__ModelProto *m, const char *base_dir, const char *want, const char *what)
{
  char err[1024] = "";
  nc_onnx_model *r = load_packed(m, base_dir, err, sizeof err);
  CHECK(!r, "%s: accepted", what);
  CHECK(strstr(err, want) && !strchr(err, '\n'), "%s: message '%s' lacks '%s'", what, err, want);
  nc_onnx_model_destroy(r);
}

static void test_good_model(void)
{
  fixture f;
  fixture_init(&f);
  char err[1024] = "";
  nc_onnx_model *m = load_packed(&f.model, NULL, err, sizeof err);
  CHECK(m, "good model: %s", err);
  if (!m)
    return;
  CHECK(m->path == NULL, "path of a model from memory");
  CHECK(nc_onnx_model_get_opset(m, "") == 13 && nc_onnx_model_get_opset(m, "ai.onnx") == 13, "opset");
  CHECK(nc_onnx_model_get_opset(m, "com.microsoft") == -1, "absent opset");
  const Onnx__GraphProto *g = m->proto->graph;
  CHECK(g->n_node == 2 && !strcmp(g->node[1]->op_type, "Add"), "nodes");
  CHECK(g->node[1]->name && !*g->node[1]->name && g->node[1]->domain && !*g->node[1]->domain,
        "absent node name/domain must become \"\"");
  const Onnx__AttributeProto *a = nc_onnx_node_find_attribute(g->node[0], "value");
  CHECK(a && a->t && a->t->n_int64_data == 3, "Constant attribute");
  CHECK(!nc_onnx_node_find_attribute(g->node[0], "nope"), "absent attribute");
  int64_t dims[8];
  CHECK(nc_onnx_value_info_get_shape(g->input[0], dims, 8) == 2 && dims[0] == 1 && dims[1] == -1, "input shape");
  CHECK(nc_onnx_value_info_get_elem_type(g->output[0]) == NC_ONNX_FLOAT, "output elem type");
  const Onnx__TensorProto *w = nc_onnx_graph_find_initializer(g, "conv1.weight");
  CHECK(w && !nc_onnx_graph_find_initializer(g, "x"), "find_initializer");
  nc_tensor *t = w ? nc_onnx_tensor_to_host(w, err, sizeof err) : NULL;
  CHECK(t && t->dtype == NC_DT_F32 && t->rank == 4 && t->shape[0] == 16 && t->shape[3] == 3, "weight: %s", err);
  if (t)
    CHECK(!memcmp(t->data, f.weight_data, sizeof f.weight_data), "weight data");
  nc_tensor_destroy(t);
  t = nc_onnx_tensor_to_host(a->t, err, sizeof err);
  CHECK(t && t->dtype == NC_DT_I64 && nc_tensor_get_i64(t, 2) == 1LL << 40, "constant: %s", err);
  nc_tensor_destroy(t);
  nc_onnx_model_destroy(m);
}

static void test_model_errors(void)
{
  fixture f;

  fixture_init(&f);
  f.weight.raw_data.len = 100;
  char err[1024] = "";
  CHECK(!load_packed(&f.model, NULL, err, sizeof err) &&
        !strcmp(err, "initializer 'conv1.weight': raw_data has 100 bytes, dims [16,1,3,3] of FLOAT need 576"),
        "exact raw_data message: '%s'", err);

  fixture_init(&f);
  f.weight.raw_data.len = 577;
  expect_model_error(&f.model, NULL, "raw_data has 577 bytes, dims [16,1,3,3] of FLOAT need 576", "raw_data too long");
  fixture_init(&f);
  f.weight.data_type = 99;
  expect_model_error(&f.model, NULL, "initializer 'conv1.weight': unknown data_type 99", "unknown data type");
  fixture_init(&f);
  f.weight.has_data_type = 0;
  expect_model_error(&f.model, NULL, "initializer 'conv1.weight': has no data_type", "no data type");
  fixture_init(&f);
  f.weight_dims[1] = -1;
  expect_model_error(&f.model, NULL, "dimension 1 is negative (-1)", "negative dim");
  fixture_init(&f);
  f.weight_dims[0] = f.weight_dims[1] = 1LL << 40;
  expect_model_error(&f.model, NULL, "has too many elements", "overflowing dims");
  fixture_init(&f);
  f.weight.name = NULL;
  expect_model_error(&f.model, NULL, "initializer #0: has no name", "unnamed initializer");
  fixture_init(&f);
  f.weight.has_data_location = 1;
  f.weight.data_location = 7;
  expect_model_error(&f.model, NULL, "unknown data_location 7", "bad data_location");

  /* Typed fields: wrong field, wrong count, two sources, none. */
  fixture_init(&f);
  f.cval.n_int64_data = 0;
  f.cval.n_float_data = 3;
  float fl[3] = {0};
  f.cval.float_data = fl;
  expect_model_error(&f.model, NULL,
                     "node 'c0' (Constant): attribute 'value': "
                     "INT64 tensor has float_data (its values belong in int64_data)",
                     "wrong typed field");
  fixture_init(&f);
  f.cval.n_int64_data = 2;
  expect_model_error(&f.model, NULL, "int64_data has 2 values, dims [3] of INT64 need 3", "typed count");
  fixture_init(&f);
  f.cval.has_raw_data = 1;
  f.cval.raw_data.len = 24;
  f.cval.raw_data.data = (uint8_t *)f.cval_data;
  expect_model_error(&f.model, NULL, "has both raw_data and int64_data", "raw and typed");
  fixture_init(&f);
  f.cval.n_int64_data = 0;
  expect_model_error(&f.model, NULL, "has no data (dims [3] of INT64 need 24 bytes)", "no data");
  fixture_init(&f);
  f.value.t = NULL;
  expect_model_error(&f.model, NULL, "attribute 'value': TENSOR attribute has no tensor", "TENSOR without t");
  fixture_init(&f);
  f.value.type = 77;
  expect_model_error(&f.model, NULL, "unknown attribute type 77", "bad attribute type");
  fixture_init(&f);
  f.value.name = NULL;
  expect_model_error(&f.model, NULL, "node 'c0' (Constant): attribute #0: has no name", "unnamed attribute");

  /* Graph structure. */
  fixture_init(&f);
  f.in.name = NULL;
  expect_model_error(&f.model, NULL, "input #0: has no name", "unnamed input");
  fixture_init(&f);
  f.weight.name = "evil\nname";
  f.weight.raw_data.len = 4;
  expect_model_error(&f.model, NULL, "initializer 'evil?name': raw_data has 4 bytes", "control bytes in names");
  fixture_init(&f);
  f.in.type = NULL;
  expect_model_error(&f.model, NULL, "input 'x': has no type", "untyped input");
  fixture_init(&f);
  f.out_tt.has_elem_type = 0;
  expect_model_error(&f.model, NULL, "output 'y': tensor type has no elem_type", "no elem type");
  fixture_init(&f);
  f.out_tt.elem_type = 1000;
  expect_model_error(&f.model, NULL, "output 'y': tensor type has unknown elem_type 1000", "bad elem type");
  fixture_init(&f);
  f.d[0].dim_value = -3;
  expect_model_error(&f.model, NULL, "input 'x': dimension 0 of the type is negative (-3)", "negative dim_value");
  fixture_init(&f);
  f.add.op_type = NULL;
  expect_model_error(&f.model, NULL, "node #1: has no op_type", "no op_type");
  fixture_init(&f);
  f.model.graph = NULL;
  expect_model_error(&f.model, NULL, "model has no graph", "no graph");

  /* A subgraph (If.then_branch) carrying a bad initializer: the message
   * names the whole path. Subgraph inputs/outputs may be untyped. */
  fixture_init(&f);
  Onnx__GraphProto sub = ONNX__GRAPH_PROTO__INIT;
  Onnx__ValueInfoProto sub_out = ONNX__VALUE_INFO_PROTO__INIT, *sub_outs[1] = {&sub_out};
  sub_out.name = "w";
  sub.n_output = 1, sub.output = sub_outs;
  Onnx__TensorProto w = ONNX__TENSOR_PROTO__INIT, *ws[1] = {&w};
  int64_t wdim = 4;
  uint8_t wraw[16] = {0};
  w.name = "w", w.has_data_type = 1, w.data_type = NC_ONNX_FLOAT, w.n_dims = 1, w.dims = &wdim;
  w.has_raw_data = 1, w.raw_data.len = 16, w.raw_data.data = wraw;
  sub.n_initializer = 1, sub.initializer = ws;
  Onnx__AttributeProto branch = ONNX__ATTRIBUTE_PROTO__INIT, *battrs[1] = {&branch};
  branch.name = "then_branch", branch.has_type = 1, branch.type = ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH;
  branch.g = &sub;
  f.add.op_type = "If", f.add.name = "if0";
  f.add.n_attribute = 1, f.add.attribute = battrs;
  char err2[1024];
  nc_onnx_model *m = load_packed(&f.model, NULL, err2, sizeof err2);
  CHECK(m, "model with a subgraph: %s", err2);
  nc_onnx_model_destroy(m);
  w.raw_data.len = 15;
  expect_model_error(&f.model, NULL,
                     "node 'if0' (If): attribute 'then_branch': initializer 'w': "
                     "raw_data has 15 bytes, dims [4] of FLOAT need 16",
                     "subgraph path");

  /* IR version 1 attributes without a type get one inferred. */
  fixture_init(&f);
  Onnx__AttributeProto axis = ONNX__ATTRIBUTE_PROTO__INIT, *aattrs[1] = {&axis};
  axis.name = "axis", axis.has_i = 1, axis.i = 2;
  f.add.n_attribute = 1, f.add.attribute = aattrs;
  m = load_packed(&f.model, NULL, err2, sizeof err2);
  CHECK(m && m->proto->graph->node[1]->attribute[0]->has_type &&
        m->proto->graph->node[1]->attribute[0]->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT,
        "attribute type inference: %s", err2);
  nc_onnx_model_destroy(m);
  axis.has_i = 0;
  expect_model_error(&f.model, NULL, "attribute 'axis': has no type and no value", "attribute without value");
}

static void test_sparse(void)
{
  fixture f;
  fixture_init(&f);
  Onnx__SparseTensorProto s = ONNX__SPARSE_TENSOR_PROTO__INIT, *ss[1] = {&s};
  Onnx__TensorProto vals = ONNX__TENSOR_PROTO__INIT, idx = ONNX__TENSOR_PROTO__INIT;
  int64_t dense_dims[2] = {3, 4}, nnz = 2, idx_data[2] = {1, 11};
  float v[2] = {1, 2};
  vals.name = "sp", vals.has_data_type = 1, vals.data_type = NC_ONNX_FLOAT, vals.n_dims = 1, vals.dims = &nnz;
  vals.n_float_data = 2, vals.float_data = v;
  idx.has_data_type = 1, idx.data_type = NC_ONNX_INT64, idx.n_dims = 1, idx.dims = &nnz;
  idx.n_int64_data = 2, idx.int64_data = idx_data;
  s.values = &vals, s.indices = &idx, s.n_dims = 2, s.dims = dense_dims;
  f.graph.n_sparse_initializer = 1, f.graph.sparse_initializer = ss;
  char err[1024];
  nc_onnx_model *m = load_packed(&f.model, NULL, err, sizeof err);
  CHECK(m, "sparse initializer: %s", err);
  nc_onnx_model_destroy(m);
  idx_data[1] = 12;
  expect_model_error(&f.model, NULL, "sparse initializer 'sp': sparse tensor index 12 is out of range [0,12)",
                     "sparse index range");
  idx_data[1] = 3;
  idx.data_type = NC_ONNX_INT32;
  idx.n_int64_data = 0, idx.n_int32_data = 2, idx.int32_data = (int32_t[]){1, 3};
  expect_model_error(&f.model, NULL, "indices must be INT64", "sparse index type");
  s.indices = NULL;
  expect_model_error(&f.model, NULL, "sparse tensor has no indices", "sparse without indices");
}

/* Truncations, garbage and deep nesting: refused, never a crash. */
static void test_malformed(void)
{
  fixture f;
  fixture_init(&f);
  size_t len;
  uint8_t *buf = pack_model(&f.model, &len);
  char err[1024];
  for (size_t k = 0; k < len; k++) {
    err[0] = 0;
    nc_onnx_model *m = nc_onnx_model_load_from_memory(buf, k, NULL, err, sizeof err);
    CHECK(m || (err[0] && !strchr(err, '\n')), "truncated to %zu bytes: no message", k);
    nc_onnx_model_destroy(m);
  }
  nc_onnx_model *m = nc_onnx_model_load_from_memory(buf, len - 1, NULL, err, sizeof err);
  CHECK(!m && strstr(err, "not a valid ONNX model: malformed protobuf at byte"), "cut model: %s", err);
  nc_onnx_model_destroy(m);
  free(buf);

  const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01};
  CHECK(!nc_onnx_model_load_from_memory(garbage, sizeof garbage, NULL, err, sizeof err) &&
        strstr(err, "not a valid ONNX model"), "garbage: %s", err);
  const uint8_t group[] = {0x0b, 0x0c}; /* field 1 start-group / end-group */
  CHECK(!nc_onnx_model_load_from_memory(group, sizeof group, NULL, err, sizeof err) &&
        strstr(err, "unsupported wire type 3"), "group: %s", err);
  /* A wire-valid ModelProto whose graph field holds an invalid message. */
  const uint8_t badsub[] = {0x3a, 0x02, 0x08, 0x80};
  CHECK(!nc_onnx_model_load_from_memory(badsub, sizeof badsub, NULL, err, sizeof err) &&
        strstr(err, "malformed protobuf at byte 2"), "bad submessage: %s", err);
  CHECK(!nc_onnx_model_load_from_memory(NULL, 0, NULL, err, sizeof err) && strstr(err, "model has no graph"),
        "empty input: %s", err);

  /* Graph -> node -> attribute -> graph ..., 200 levels deep. */
  size_t cap = 1 << 16, n = 0;
  uint8_t *deep = malloc(cap), *tmp = malloc(cap);
  static const uint8_t tags[3] = {0x32 /* attribute.g */, 0x2a /* node.attribute */, 0x0a /* graph.node */};
  for (int level = 0; level < 200 * 3; level++) {
    size_t m2 = 0;
    tmp[m2++] = tags[level % 3];
    for (size_t v = n; ; v >>= 7) {
      tmp[m2++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
      if (v < 0x80)
        break;
    }
    memcpy(tmp + m2, deep, n);
    memcpy(deep, tmp, m2 + n);
    n += m2;
  }
  tmp[0] = 0x3a; /* model.graph */
  size_t m2 = 1;
  for (size_t v = n; ; v >>= 7) {
    tmp[m2++] = (uint8_t)((v & 0x7f) | (v >= 0x80 ? 0x80 : 0));
    if (v < 0x80)
      break;
  }
  memcpy(tmp + m2, deep, n);
  m = nc_onnx_model_load_from_memory(tmp, m2 + n, NULL, err, sizeof err);
  CHECK(!m && strstr(err, "nested deeper than"), "deep nesting: %s", err);
  nc_onnx_model_destroy(m);
  free(deep);
  free(tmp);
}

/* ---- tensors ---------------------------------------------------------------- */

static Onnx__TensorProto *repack(const Onnx__TensorProto *t)
{
  size_t len = onnx__tensor_proto__get_packed_size(t);
  uint8_t *buf = malloc(len ? len : 1);
  onnx__tensor_proto__pack(t, buf);
  Onnx__TensorProto *r = onnx__tensor_proto__unpack(NULL, len, buf);
  free(buf);
  return r;
}

static void test_tensor_round_trips(void)
{
  static const int64_t shape[3] = {2, 3, 5};
  char err[512];
  for (int dt = 0; dt < NC_DT_COUNT; dt++) {
    for (int rank = 0; rank <= 3; rank += 3) {
      nc_tensor *h = nc_tensor_create((nc_dtype)dt, rank, shape, 0);
      int64_t n = nc_tensor_num_elements(h);
      for (int64_t i = 0; i < n; i++) {
        if (nc_dtype_is_integer((nc_dtype)dt))
          nc_tensor_set_i64(h, i, i * 5 - 9);
        else
          nc_tensor_set_f64(h, i, (double)i * 0.25 - 3.0);
      }
      Onnx__TensorProto *p = nc_onnx_tensor_from_host(h, "t");
      CHECK(p->data_type == nc_onnx_data_type_from_dtype((nc_dtype)dt), "data type of %s", nc_dtype_name(dt));
      Onnx__TensorProto *q = repack(p);
      nc_tensor *r = q ? nc_onnx_tensor_to_host(q, err, sizeof err) : NULL;
      CHECK(r, "%s rank %d round trip: %s", nc_dtype_name(dt), rank, err);
      if (r) {
        CHECK(r->dtype == (nc_dtype)dt && r->rank == rank && !memcmp(r->shape, h->shape, sizeof h->shape),
              "%s: metadata", nc_dtype_name(dt));
        CHECK(!memcmp(r->data, h->data, nc_tensor_num_bytes(h)), "%s rank %d: data differs", nc_dtype_name(dt), rank);
      }
      nc_tensor_destroy(r);
      nc_onnx_tensor_proto_destroy(q);
      nc_onnx_tensor_proto_destroy(p);
      nc_tensor_destroy(h);
    }
  }
  /* Zero-size. */
  int64_t zs[2] = {0, 7};
  nc_tensor *h = nc_tensor_create(NC_DT_F32, 2, zs, 0);
  Onnx__TensorProto *p = nc_onnx_tensor_from_host(h, NULL);
  Onnx__TensorProto *q = repack(p);
  nc_tensor *r = nc_onnx_tensor_to_host(q, err, sizeof err);
  CHECK(r && r->rank == 2 && r->shape[0] == 0 && r->shape[1] == 7, "zero-size: %s", err);
  nc_tensor_destroy(r);
  nc_onnx_tensor_proto_destroy(q);
  nc_onnx_tensor_proto_destroy(p);
  nc_tensor_destroy(h);
}

/* ONNX's packing: two 4-bit (or four 2-bit) elements per byte, low bits first. */
static void test_packing(void)
{
  int64_t three = 3, five = 5;
  nc_tensor *h = nc_tensor_create(NC_DT_I4, 1, &three, 0);
  nc_tensor_set_i64(h, 0, 1), nc_tensor_set_i64(h, 1, -2), nc_tensor_set_i64(h, 2, 7);
  Onnx__TensorProto *p = nc_onnx_tensor_from_host(h, NULL);
  CHECK(p->data_type == NC_ONNX_INT4 && p->raw_data.len == 2 && p->raw_data.data[0] == 0xE1 &&
        p->raw_data.data[1] == 0x07, "INT4 packing");
  nc_onnx_tensor_proto_destroy(p);
  nc_tensor_destroy(h);
  h = nc_tensor_create(NC_DT_U2, 1, &five, 0);
  for (int i = 0; i < 5; i++)
    nc_tensor_set_i64(h, i, (i + 1) % 4);
  p = nc_onnx_tensor_from_host(h, NULL);
  CHECK(p->data_type == NC_ONNX_UINT2 && p->raw_data.len == 2 && p->raw_data.data[0] == 0x39 &&
        p->raw_data.data[1] == 0x01, "UINT2 packing: %02x %02x", p->raw_data.data[0], p->raw_data.data[1]);
  nc_onnx_tensor_proto_destroy(p);
  nc_tensor_destroy(h);
}

/* Typed repeated fields, with ONNX's rules on where each type lives. */
static void test_typed_fields(void)
{
  char err[512];
  Onnx__TensorProto t = ONNX__TENSOR_PROTO__INIT;
  int64_t dims[1] = {3};
  t.has_data_type = 1, t.n_dims = 1, t.dims = dims;
  int32_t i8[3] = {-1, -128, 127};
  t.data_type = NC_ONNX_INT8, t.n_int32_data = 3, t.int32_data = i8;
  nc_tensor *h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(h && h->dtype == NC_DT_I8 && nc_tensor_get_i64(h, 0) == -1 && nc_tensor_get_i64(h, 1) == -128 &&
        nc_tensor_get_i64(h, 2) == 127, "INT8 from int32_data: %s", err);
  nc_tensor_destroy(h);
  /* a value outside the type is refused, not wrapped (300 once became 44) */
  i8[1] = 300;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(!h && strstr(err, "int32_data[1] is 300, outside the range of INT8 [-128, 127]"), "INT8 300: %s", err);
  nc_tensor_destroy(h);
  int32_t u16[3] = {0, 65535, 65536};
  t.data_type = NC_ONNX_UINT16, t.int32_data = u16;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(!h && strstr(err, "int32_data[2] is 65536, outside the range of UINT16 [0, 65535]"), "UINT16: %s", err);
  nc_tensor_destroy(h);
  int32_t bits16[3] = {0x3C00, 0xC000, 0x7BFF};
  t.data_type = NC_ONNX_FLOAT16, t.int32_data = bits16;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(h && h->dtype == NC_DT_F16 && nc_tensor_get_f64(h, 0) == 1.0 && nc_tensor_get_f64(h, 1) == -2.0 &&
        nc_tensor_get_f64(h, 2) == 65504.0, "FLOAT16 from int32_data: %s", err);
  nc_tensor_destroy(h);
  int32_t bf[3] = {0x3F80, 0x4040, 0xBF00};
  t.data_type = NC_ONNX_BFLOAT16, t.int32_data = bf;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(h && h->dtype == NC_DT_BF16 && nc_tensor_get_f64(h, 0) == 1.0 && nc_tensor_get_f64(h, 1) == 3.0 &&
        nc_tensor_get_f64(h, 2) == -0.5, "BFLOAT16 from int32_data: %s", err);
  nc_tensor_destroy(h);
  int32_t bools[3] = {0, 5, 1};
  t.data_type = NC_ONNX_BOOL, t.int32_data = bools;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(h && ((uint8_t *)h->data)[1] == 1 && ((uint8_t *)h->data)[0] == 0, "BOOL from int32_data: %s", err);
  nc_tensor_destroy(h);
  int32_t packed[2] = {0xE1, 0x07};
  t.data_type = NC_ONNX_INT4, t.n_int32_data = 2, t.int32_data = packed;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(h && h->dtype == NC_DT_I4 && nc_tensor_get_i64(h, 0) == 1 && nc_tensor_get_i64(h, 1) == -2 &&
        nc_tensor_get_i64(h, 2) == 7, "INT4 from int32_data: %s", err);
  nc_tensor_destroy(h);
  t.data_type = NC_ONNX_UINT4;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(h && h->dtype == NC_DT_U4 && nc_tensor_get_i64(h, 1) == 14, "UINT4 from int32_data: %s", err);
  nc_tensor_destroy(h);
  t.n_int32_data = 0;
  uint64_t u[3] = {4000000000u, 1, 2};
  t.data_type = NC_ONNX_UINT32, t.n_uint64_data = 3, t.uint64_data = u;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(h && h->dtype == NC_DT_U32 && nc_tensor_get_i64(h, 0) == 4000000000LL, "UINT32 from uint64_data: %s", err);
  nc_tensor_destroy(h);
  t.n_uint64_data = 0;
  double d[3] = {0.5, -1e300, 3};
  t.data_type = NC_ONNX_DOUBLE, t.n_double_data = 3, t.double_data = d;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(h && h->dtype == NC_DT_F64 && nc_tensor_get_f64(h, 1) == -1e300, "DOUBLE from double_data: %s", err);
  nc_tensor_destroy(h);
  t.n_double_data = 0;

  /* Types with no nc dtype and too high ranks are refused by to_host only. */
  ProtobufCBinaryData strs[3] = {{1, (uint8_t *)"a"}, {1, (uint8_t *)"b"}, {1, (uint8_t *)"c"}};
  t.name = "s", t.data_type = NC_ONNX_STRING, t.n_string_data = 3, t.string_data = strs;
  CHECK(nc_onnx_tensor_check(&t, "s", err, sizeof err), "STRING tensor is valid: %s", err);
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(!h && !strcmp(err, "tensor 's': data type STRING is not supported"), "STRING to_host: %s", err);
  t.n_string_data = 0;
  int64_t d9[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  float one = 1;
  t.data_type = NC_ONNX_FLOAT, t.n_dims = 9, t.dims = d9, t.n_float_data = 1, t.float_data = &one;
  h = nc_onnx_tensor_to_host(&t, err, sizeof err);
  CHECK(!h && strstr(err, "rank 9 exceeds the maximum of 8"), "rank 9: %s", err);
  t.data_type = NC_ONNX_FLOAT8E4M3FN, t.n_float_data = 0, t.n_int32_data = 1, t.int32_data = packed;
  CHECK(nc_onnx_tensor_check(&t, "f8", err, sizeof err), "FLOAT8 tensors are valid: %s", err);
  t.has_data_location = 1, t.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
  CHECK(!nc_onnx_tensor_check(&t, "ext", err, sizeof err) && strstr(err, "externally and was not loaded"),
        "unloaded external data: %s", err);

  CHECK(!strcmp(nc_onnx_data_type_name(NC_ONNX_INT4), "INT4") && !strcmp(nc_onnx_data_type_name(500), "?"),
        "data type names");
  nc_dtype dt;
  CHECK(!nc_onnx_data_type_to_dtype(NC_ONNX_COMPLEX64, &dt) && nc_onnx_data_type_to_dtype(NC_ONNX_UINT2, &dt) &&
        dt == NC_DT_U2, "data type mapping");
}

static char tmpdir[] = "/tmp/nc_onnx_test_XXXXXX";

static void write_file(const char *path, const void *data, size_t len)
{
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, len, f) != len) {
    fprintf(stderr, "cannot write %s\n", path);
    exit(1);
  }
  fclose(f);
}

static void test_pb_files(void)
{
  char path[300], err[512], *name = NULL;
  snprintf(path, sizeof path, "%s/t.pb", tmpdir);
  int64_t shape[2] = {2, 2};
  nc_tensor *h = nc_tensor_create(NC_DT_F16, 2, shape, 0);
  for (int i = 0; i < 4; i++)
    nc_tensor_set_f64(h, i, i - 1.5);
  CHECK(nc_onnx_pb_write(path, h, "input_0", err, sizeof err), "pb write: %s", err);
  nc_tensor *r = nc_onnx_pb_read(path, &name, err, sizeof err);
  CHECK(r && name && !strcmp(name, "input_0") && r->dtype == NC_DT_F16 &&
        !memcmp(r->data, h->data, nc_tensor_num_bytes(h)), "pb read back: %s", err);
  free(name);
  nc_tensor_destroy(r);
  nc_tensor_destroy(h);

  CHECK(!nc_onnx_pb_read("data/nonexistent.pb", NULL, err, sizeof err) &&
        strstr(err, "data/nonexistent.pb: cannot open"), "missing pb: %s", err);
  const uint8_t bad[] = {0x08, 0x02, 0x10, 0x01, 0x4a, 0x03, 0x00}; /* dims 2, FLOAT, raw_data cut short */
  write_file(path, bad, sizeof bad);
  CHECK(!nc_onnx_pb_read(path, NULL, err, sizeof err) && strstr(err, "not a serialized TensorProto: malformed"),
        "bad pb: %s", err);
  const uint8_t small[] = {0x08, 0x02, 0x10, 0x01, 0x4a, 0x04, 0, 0, 0, 0}; /* raw_data 4 bytes for 2 floats */
  CHECK(!nc_onnx_pb_read_from_memory(small, sizeof small, "x.pb", NULL, err, sizeof err) &&
        !strcmp(err, "x.pb: tensor '': raw_data has 4 bytes, dims [2] of FLOAT need 8"), "short pb: %s", err);
  CHECK(!nc_onnx_pb_write("/nonexistent-dir/t.pb", h = nc_tensor_create(NC_DT_I8, 0, NULL, 0), NULL, err, sizeof err) &&
        strstr(err, "/nonexistent-dir/t.pb: cannot create"), "unwritable pb: %s", err);
  nc_tensor_destroy(h);
}

/* ---- external data ---------------------------------------------------------- */

static Onnx__StringStringEntryProto entries[3], *entry_ptrs[3];

/* Points f.weight at external data (location, offset, length; NULL = absent). */
static void make_external(fixture *f, const char *loc, const char *off, const char *len)
{
  const char *keys[3] = {"location", "offset", "length"}, *vals[3] = {loc, off, len};
  size_t n = 0;
  for (int i = 0; i < 3; i++) {
    if (!vals[i])
      continue;
    entries[n] = (Onnx__StringStringEntryProto)ONNX__STRING_STRING_ENTRY_PROTO__INIT;
    entries[n].key = (char *)keys[i];
    entries[n].value = (char *)vals[i];
    entry_ptrs[n] = &entries[n];
    n++;
  }
  f->weight.has_raw_data = 0;
  f->weight.n_external_data = n;
  f->weight.external_data = entry_ptrs;
  f->weight.has_data_location = 1;
  f->weight.data_location = ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
}

static void test_external_data(void)
{
  char dir[300], path[400], outside[400], err[1024];
  snprintf(dir, sizeof dir, "%s/model", tmpdir);
  mkdir(dir, 0700);
  snprintf(path, sizeof path, "%s/sub", dir);
  mkdir(path, 0700);
  fixture f;
  fixture_init(&f);
  /* weights.bin: 64 bytes of padding, then the 576 bytes of the weight. */
  uint8_t blob[64 + 576] = {0};
  memcpy(blob + 64, f.weight_data, 576);
  snprintf(path, sizeof path, "%s/weights.bin", dir);
  write_file(path, blob, sizeof blob);
  snprintf(outside, sizeof outside, "%s/outside.bin", tmpdir);
  write_file(outside, blob, sizeof blob);
  snprintf(path, sizeof path, "%s/link.bin", dir);
  if (symlink(outside, path))
    perror("symlink");

  make_external(&f, "weights.bin", "64", "576");
  size_t len;
  uint8_t *buf = pack_model(&f.model, &len);
  snprintf(path, sizeof path, "%s/model.onnx", dir);
  write_file(path, buf, len);
  free(buf);
  nc_onnx_model *m = nc_onnx_model_load(path, err, sizeof err);
  CHECK(m, "external data: %s", err);
  if (m) {
    const Onnx__TensorProto *w = m->proto->graph->initializer[0];
    CHECK(m->path && !strcmp(m->path, path), "model path");
    CHECK(w->has_raw_data && w->raw_data.len == 576 && !memcmp(w->raw_data.data, f.weight_data, 576) &&
          w->n_external_data == 0 && w->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__DEFAULT,
          "external data was not loaded into raw_data");
  }
  nc_onnx_model_destroy(m);
  make_external(&f, "sub/../weights.bin", "64", NULL); /* '..' that stays inside is fine (it once "escaped") */
  m = load_packed(&f.model, dir, err, sizeof err);
  CHECK(m, "inner ..: %s", err);
  nc_onnx_model_destroy(m);
  make_external(&f, ".", "64", NULL); /* once "resolves outside the model directory" */
  expect_model_error(&f.model, dir, "external data location '.' is the model directory itself, not a file", "dot");
  make_external(&f, "./weights.bin", "64", NULL);
  m = load_packed(&f.model, dir, err, sizeof err);
  CHECK(m, "length defaults to the rest of the file: %s", err);
  nc_onnx_model_destroy(m);

  make_external(&f, "weights.bin", "64", "576");
  expect_model_error(&f.model, NULL, "initializer 'conv1.weight': uses external data", "from memory, no dir");
  make_external(&f, "../outside.bin", "64", "576");
  expect_model_error(&f.model, dir, "external data location '../outside.bin' resolves outside the model directory",
                     "..");
  make_external(&f, "sub/../../outside.bin", "64", "576");
  expect_model_error(&f.model, dir, "resolves outside the model directory", "sub/../..");
  snprintf(path, sizeof path, "%s/fifo.bin", dir); /* opening a FIFO for reading would block forever */
  if (mkfifo(path, 0600))
    perror("mkfifo");
  make_external(&f, "fifo.bin", "0", "576");
  expect_model_error(&f.model, dir, "external data file 'fifo.bin' is not a regular file", "fifo");
  make_external(&f, outside, "64", "576");
  expect_model_error(&f.model, dir, "is an absolute path", "absolute");
  make_external(&f, "link.bin", "64", "576");
  expect_model_error(&f.model, dir, "external data location 'link.bin' resolves outside the model directory",
                     "symlink");
  make_external(&f, "missing.bin", "0", "576");
  expect_model_error(&f.model, dir, "cannot open external data file 'missing.bin'", "missing");
  make_external(&f, "sub", NULL, NULL);
  expect_model_error(&f.model, dir, "is not a regular file", "directory");
  make_external(&f, "weights.bin", "641", NULL);
  expect_model_error(&f.model, dir, "offset 641 is past the end of 'weights.bin' (640 bytes)", "offset");
  make_external(&f, "weights.bin", "100", "576");
  expect_model_error(&f.model, dir, "offset 100 + length 576 runs past the end", "offset+length");
  make_external(&f, "weights.bin", "0", "100");
  expect_model_error(&f.model, dir,
                     "initializer 'conv1.weight': external data has 100 bytes, dims [16,1,3,3] of FLOAT need 576",
                     "length mismatch");
  make_external(&f, "weights.bin", "-5", "576");
  expect_model_error(&f.model, dir, "'offset' is not a non-negative integer", "negative offset");
  make_external(&f, NULL, "0", "576");
  expect_model_error(&f.model, dir, "external data has no 'location'", "no location");
  make_external(&f, "weights.bin", "64", "576");
  f.weight.has_raw_data = 1;
  expect_model_error(&f.model, dir, "has both external data and inline data", "external + inline");

  /* Two tensors claiming the same bytes exceed what the file holds. */
  fixture_init(&f);
  make_external(&f, "weights.bin", "64", "576");
  Onnx__TensorProto *two[2] = {&f.weight, &f.weight};
  f.graph.n_initializer = 2, f.graph.initializer = two;
  expect_model_error(&f.model, dir, "add up to more bytes than the external files hold", "overlap");
  f.graph.n_initializer = 1;

  CHECK(!nc_onnx_model_load("data/nonexistent.onnx", err, sizeof err) &&
        strstr(err, "data/nonexistent.onnx: cannot open"), "missing model: %s", err);
  snprintf(path, sizeof path, "%s/weights.bin", dir);
  CHECK(!nc_onnx_model_load(path, err, sizeof err) && strncmp(err, path, strlen(path)) == 0 &&
        strstr(err, "not a valid ONNX model"), "binary junk as model: %s", err);

  const char *files[] = {"model/weights.bin", "model/link.bin", "model/model.onnx", "model/fifo.bin", "outside.bin",
                         "t.pb"};
  for (size_t i = 0; i < NC_COUNTOF(files); i++) {
    snprintf(path, sizeof path, "%s/%s", tmpdir, files[i]);
    remove(path);
  }
  snprintf(path, sizeof path, "%s/sub", dir);
  rmdir(path);
  rmdir(dir);
}

/* ---- ONNX's backend test cases ---------------------------------------------- */

static int models_seen, tensors_seen, shapes_checked;

/* Every data file must parse and pass nc_onnx_tensor_check(); those whose
 * type nc has (all but STRING here) must also convert to a host tensor. */
static void check_data_file(const char *path, const Onnx__ValueInfoProto *vi)
{
  char err[1024];
  FILE *f = fopen(path, "rb");
  uint8_t *buf = malloc(1 << 24);
  size_t len = f ? fread(buf, 1, 1 << 24, f) : 0;
  if (f)
    fclose(f);
  Onnx__TensorProto *p = onnx__tensor_proto__unpack(NULL, len, buf);
  free(buf);
  CHECK(p && nc_onnx_tensor_check(p, path, err, sizeof err), "%s: %s", path, p ? err : "cannot unpack");
  if (!p)
    return;
  tensors_seen++;
  nc_dtype dt;
  if (nc_onnx_data_type_to_dtype(p->data_type, &dt)) {
    nc_tensor *t = nc_onnx_pb_read(path, NULL, err, sizeof err);
    CHECK(t && t->dtype == dt && t->rank == (int)p->n_dims &&
          (!p->n_dims || !memcmp(t->shape, p->dims, p->n_dims * sizeof *p->dims)), "%s: %s", path,
          t ? "shape" : err);
    nc_tensor_destroy(t);
  }
  if (vi) {
    int32_t et = nc_onnx_value_info_get_elem_type(vi);
    CHECK(!et || et == p->data_type, "%s: data type %s, model declares %s", path,
          nc_onnx_data_type_name(p->data_type), nc_onnx_data_type_name(et));
    int64_t dims[NC_TENSOR_MAX_RANK];
    int rank = nc_onnx_value_info_get_shape(vi, dims, NC_TENSOR_MAX_RANK);
    bool is_static = rank >= 0 && rank <= NC_TENSOR_MAX_RANK;
    for (int i = 0; is_static && i < rank; i++)
      is_static = dims[i] >= 0;
    if (is_static) {
      shapes_checked++;
      CHECK(rank == (int)p->n_dims && (!rank || !memcmp(dims, p->dims, (size_t)rank * sizeof *dims)),
            "%s: shape does not match the model's '%s'", path, vi->name);
    }
  }
  nc_onnx_tensor_proto_destroy(p);
}

static void check_test_case(const char *dir)
{
  char path[1024], err[1024];
  snprintf(path, sizeof path, "%s/model.onnx", dir);
  nc_onnx_model *m = nc_onnx_model_load(path, err, sizeof err);
  CHECK(m, "%s", err);
  if (!m)
    return;
  models_seen++;
  const Onnx__GraphProto *g = m->proto->graph;
  /* Test inputs feed the graph inputs that are not initializers. */
  const Onnx__ValueInfoProto *inputs[64];
  size_t n_inputs = 0;
  for (size_t i = 0; i < g->n_input && n_inputs < 64; i++)
    if (!nc_onnx_graph_find_initializer(g, g->input[i]->name))
      inputs[n_inputs++] = g->input[i];
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (strncmp(e->d_name, "test_data_set_", 14))
      continue;
    for (int k = 0; k < 64; k++) {
      struct stat st;
      snprintf(path, sizeof path, "%s/%s/input_%d.pb", dir, e->d_name, k);
      if (!stat(path, &st))
        check_data_file(path, (size_t)k < n_inputs ? inputs[k] : NULL);
      snprintf(path, sizeof path, "%s/%s/output_%d.pb", dir, e->d_name, k);
      if (!stat(path, &st))
        check_data_file(path, (size_t)k < g->n_output ? g->output[k] : NULL);
    }
  }
  if (d)
    closedir(d);
  nc_onnx_model_destroy(m);
}

static void walk(const char *dir, int depth)
{
  char path[1024];
  struct stat st;
  snprintf(path, sizeof path, "%s/model.onnx", dir);
  if (!stat(path, &st))
    check_test_case(dir);
  DIR *d = opendir(dir);
  struct dirent *e;
  while (d && depth < 8 && (e = readdir(d))) {
    if (e->d_name[0] == '.' || !strncmp(e->d_name, "test_data_set_", 14))
      continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (!stat(path, &st) && S_ISDIR(st.st_mode))
      walk(path, depth + 1);
  }
  if (d)
    closedir(d);
}

static void test_onnx_backend_cases(void)
{
  const char *dir = getenv("NC_ONNX_TESTS_DIR");
  if (!dir || !*dir)
    dir = "../../../shared/onnx-tests";
  struct stat st;
  if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
    printf("skipped: no ../shared/onnx-tests\n");
    return;
  }
  walk(dir, 0);
  CHECK(models_seen > 0, "no model.onnx under %s", dir);
  printf("onnx backend cases: %d models, %d tensors, %d static shapes checked\n", models_seen, tensors_seen,
         shapes_checked);
}

int main(void)
{
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  test_good_model();
  test_model_errors();
  test_sparse();
  test_malformed();
  test_tensor_round_trips();
  test_packing();
  test_typed_fields();
  test_pb_files();
  test_external_data();
  rmdir(tmpdir);
  test_onnx_backend_cases();
  if (failures) {
    fprintf(stderr, "onnx_proto_test: %d check(s) failed\n", failures);
    return 1;
  }
  printf("onnx_proto_test: all checks passed\n");
  return 0;
}
