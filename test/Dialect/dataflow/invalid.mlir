// Invalid dataflow attributes and nodes: isl text that is not exactly one
// set or map is an error at the attribute (never an isl abort), and every
// node attribute is checked against the node with isl.
// RUN: nc-opt --split-input-file --verify-diagnostics %s

// expected-error@+1 {{invalid isl set "{ S[i] : 0 <= i < }": syntax error}}
func.func @syntax() attributes {a = #dataflow.set<"{ S[i] : 0 <= i < }">} {
  return
}

// -----

// expected-error@+1 {{invalid isl set "{ S[i] -> T[i] }": it is not a set}}
func.func @map_for_set() attributes {a = #dataflow.set<"{ S[i] -> T[i] }">} {
  return
}

// -----

// expected-error@+1 {{invalid isl map "{ S[i] : 0 <= i < 4 }": it is not a map (a set was given)}}
func.func @set_for_map() attributes {a = #dataflow.map<"{ S[i] : 0 <= i < 4 }">} {
  return
}

// -----

// expected-error@+1 {{invalid isl set "{ S[i] : 0 <= i < 4 } and more": unexpected text after the set}}
func.func @trailing() attributes {a = #dataflow.set<"{ S[i] : 0 <= i < 4 } and more">} {
  return
}

// -----

// expected-error@+1 {{invalid isl map "{ S[i] -> A[i]; S[i] -> B[i] }": it spans several spaces (a union); one space is expected}}
func.func @union() attributes {a = #dataflow.map<"{ S[i] -> A[i]; S[i] -> B[i] }">} {
  return
}

// -----

// expected-error@+1 {{unknown attribute '#dataflow.box'; the dataflow dialect has #dataflow.set<"..."> and #dataflow.map<"...">}}
func.func @unknown() attributes {a = #dataflow.box<"{ S[i] }">} {
  return
}

// -----

// expected-error@+1 {{malformed #dataflow.set: expected a string in angle brackets}}
func.func @no_string() attributes {a = #dataflow.set<{ S[i] }>} {
  return
}

// -----

// expected-error@+1 {{unknown escape in string literal}}
func.func @bad_escape() attributes {a = #dataflow.set<"{ S[i] \q }">} {
  return
}

// -----

func.func @reads_count(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op has 1 operand but 0 'reads' entries}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {clamp_min = 0 : i64}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %r = graph.relu %a : (tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %r : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @missing_domain(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op requires attribute 'domain'}}
  %0 = dataflow.node "n" (%x) {reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @domain_kind(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op attribute 'domain' failed to satisfy constraint: isl set attribute (#dataflow.set)}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.map<"{ S[] -> T[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @params(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op domain has parameters; nodes need constant bounds}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"[N] -> { S[i] : 0 <= i < N }">, reads = [#dataflow.map<"{ S[i] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @statement_name(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op domain must be a set of statement S, not 'T'}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ T[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ T[i] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ T[i] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @unbounded(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op domain is unbounded}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i }">, reads = [#dataflow.map<"{ S[i] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @empty(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op domain is empty}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 4 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @read_space(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op reads[0] must start from the domain's space}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i, j] -> In0[i] : 0 <= i < 4 and j = 0 }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @read_tensor(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op reads[0] must access tensor 'In0', not 'X'}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> X[i] }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @read_rank(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32> {
  // expected-error@+1 {{'dataflow.node' op reads[0] has 2 coordinates, but its tensor has 3}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[y] : 0 <= y < 2 }">, reads = [#dataflow.map<"{ S[y] -> In0[c, y] : 0 <= c < 2 }">],
         writes = #dataflow.map<"{ S[y] -> Out[c, y, x] : 0 <= c < 2 and 0 <= x < 2 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x2x2x2xf32>):
      dataflow.yield %a : tensor<1x2x2x2xf32>
  }) : (tensor<1x2x2x2xf32>) -> tensor<1x2x2x2xf32>
  return %0 : tensor<1x2x2x2xf32>
}

// -----

func.func @read_bounds(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op reads[0] accesses elements outside its tensor}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i + 1] }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @writes_tensor(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op writes must access tensor 'Out', not 'In0'}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i] }">],
         writes = #dataflow.map<"{ S[i] -> In0[i] }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @block_args(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op has 1 operand but its block has 0 arguments}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "elementwise"} ({
      %c = graph.constant {value = dense<1.0> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
      dataflow.yield %c : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @yield_type(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      %c = graph.constant {value = dense<1.0> : tensor<1x4xf16>} : () -> tensor<1x4xf16>
      // expected-error@+1 {{'dataflow.yield' op operand 0 does not match the type of the enclosing dataflow.node's result 0}}
      dataflow.yield %c : tensor<1x4xf16>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @isolated(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      // expected-error@+1 {{use of undeclared SSA value name}}
      dataflow.yield %x : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @earliest_names(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op earliest[0] must name the producer's statement P}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i] }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] }">, macs = 0 : i64, kind = "eltwise",
         earliest = [#dataflow.map<"{ S[i] -> Q[i] }">], control = [#dataflow.map<"{ P[i] -> S[i] : 0 <= i < 4 }">],
         buffer_elements = array<i64: 1>} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @control_direction(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op control[0] must map the producer's space to the domain's}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i] }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] }">, macs = 0 : i64, kind = "eltwise",
         earliest = [#dataflow.map<"{ S[i] -> P[i] }">], control = [#dataflow.map<"{ S[i] -> P[i] : 0 <= i < 4 }">],
         buffer_elements = array<i64: 1>} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @buffer(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op buffer_elements[0] must be at least 1, not -1}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i] }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] }">, macs = 0 : i64, kind = "eltwise",
         earliest = [#dataflow.map<"{ S[i] -> P[i] }">], control = [#dataflow.map<"{ P[i] -> S[i] : 0 <= i < 4 }">],
         buffer_elements = array<i64: -1>} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// A zero buffer once dropped the input buffer silently.
func.func @buffer_zero(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op buffer_elements[0] must be at least 1, not 0}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i] }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] }">, macs = 0 : i64, kind = "eltwise",
         earliest = [#dataflow.map<"{ S[i] -> P[i] }">], control = [#dataflow.map<"{ P[i] -> S[i] : 0 <= i < 4 }">],
         buffer_elements = array<i64: 0>} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @buffer_count(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op has 1 operand but 2 'buffer_elements' entries}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i] }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] }">, macs = 0 : i64, kind = "eltwise",
         buffer_elements = array<i64: 1, 2>} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @macs(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op macs must be non-negative}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[i] : 0 <= i < 4 }">, reads = [#dataflow.map<"{ S[i] -> In0[i] }">],
         writes = #dataflow.map<"{ S[i] -> Out[i] }">, macs = -5 : i64, kind = "eltwise"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @yield_parent() {
  // expected-error@+1 {{'dataflow.yield' op expects parent op 'dataflow.node'}}
  dataflow.yield
}

// -----

// Layer kinds and parameters (layer.h): the kind must be one of the table,
// the parameters known, well typed and consistent with the node.
func.func @bad_kind(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op kind "pool" is not a layer kind ("conv", "matmul", "max_pool", "avg_pool", "global_max_pool", "global_avg_pool", "eltwise", "concat", "copy", "lut", "resize", "pad", "shuffle", "softmax")}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "pool"} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @unknown_param(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op params: unknown parameter 'strides'}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "copy", params = {strides = array<i64: 1, 1>}} ({
    ^bb0(%a: tensor<1x4xf32>):
      dataflow.yield %a : tensor<1x4xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @kernel_length(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error@+1 {{'dataflow.node' op params: 'kernel' needs 2 entries, not 3}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 2 and 0 <= x < 2 }">, macs = 0 : i64, kind = "max_pool", params = {kernel = array<i64: 2, 2, 2>}} ({
    ^bb0(%a: tensor<1x1x4x4xf32>):
      %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
      dataflow.yield %p : tensor<1x1x2x2xf32>
  }) : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @no_kernel(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  // expected-error@+1 {{'dataflow.node' op params: a max_pool layer needs 'kernel'}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 2 and 0 <= x < 2 }">, macs = 0 : i64, kind = "max_pool"} ({
    ^bb0(%a: tensor<1x1x4x4xf32>):
      %p = graph.max_pool %a {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
      dataflow.yield %p : tensor<1x1x2x2xf32>
  }) : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

func.func @requant_count(%x: tensor<1x3xi32>) -> tensor<1x3xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'multiplier' needs 1 entry or one per output channel (3), not 2}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 3 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 3 }">, macs = 0 : i64, kind = "eltwise", params = {multiplier = array<i64: 1, 2>, shift = array<i64: 1, 2>}} ({
    ^bb0(%a: tensor<1x3xi32>):
      %r = graph.requantize %a {multiplier = array<i64: 1073741824>, shift = array<i64: 31>} : (tensor<1x3xi32>) -> tensor<1x3xi8>
      dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x3xi32>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}

// -----

func.func @shift_range(%x: tensor<1x3xi32>) -> tensor<1x3xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'shift'[0] is 64, outside [0, 63]}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 3 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 3 }">, macs = 0 : i64, kind = "eltwise", params = {multiplier = array<i64: 1>, shift = array<i64: 64>}} ({
    ^bb0(%a: tensor<1x3xi32>):
      %r = graph.requantize %a {multiplier = array<i64: 1073741824>, shift = array<i64: 31>} : (tensor<1x3xi32>) -> tensor<1x3xi8>
      dataflow.yield %r : tensor<1x3xi8>
  }) : (tensor<1x3xi32>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}

// -----

func.func @weights_shape(%x: tensor<1x4xf32>) -> tensor<1x3xf32> {
  // expected-error@+1 {{'dataflow.node' op params: matmul weights [K, 2] do not match 3 output features}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 3 }">, macs = 12 : i64, kind = "matmul", params = {weights = dense<1.0> : tensor<4x2xf32>}} ({
    ^bb0(%a: tensor<1x4xf32>):
      %w = graph.constant {value = dense<1.0> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
      %m = graph.matmul %a, %w : (tensor<1x4xf32>, tensor<4x3xf32>) -> tensor<1x3xf32>
      dataflow.yield %m : tensor<1x3xf32>
  }) : (tensor<1x4xf32>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @bad_op(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op params: 'op' must be "add", "sub", "mul", "max" or "min"}}
  %0 = dataflow.node "n" (%x, %y) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">, #dataflow.map<"{ S[] -> In1[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {op = "div", input_zero_points = array<i64: 1, 2>}} ({
    ^bb0(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>):
      %d = graph.div %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %d : tensor<1x4xf32>
  }) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @zero_points_length(%x: tensor<1x4xf32>, %y: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{'dataflow.node' op params: 'input_zero_points' needs 2 entries, not 1}}
  %0 = dataflow.node "n" (%x, %y) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 4 }">, #dataflow.map<"{ S[] -> In1[i] : 0 <= i < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 4 }">, macs = 0 : i64, kind = "eltwise", params = {op = "add", input_zero_points = array<i64: 1>}} ({
    ^bb0(%a: tensor<1x4xf32>, %b: tensor<1x4xf32>):
      %d = graph.add %a, %b : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
      dataflow.yield %d : tensor<1x4xf32>
  }) : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

func.func @bad_pad_mode(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'pad_mode' must be "constant", "reflect", "edge" or "wrap"}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 6 and 0 <= x < 6 }">, macs = 0 : i64, kind = "pad", params = {pad_mode = "mirror", pads = array<i64: 1, 1, 1, 1>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.pad %a {mode = "edge", pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
      dataflow.yield %p : tensor<1x1x6x6xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
  return %0 : tensor<1x1x6x6xi8>
}

// -----

func.func @pad_mode_not_pad(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x4x4xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'pad_mode' belongs to pad layers, not copy}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">, macs = 0 : i64, kind = "copy", params = {pad_mode = "edge"}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.identity %a : (tensor<1x1x4x4xi8>) -> tensor<1x1x4x4xi8>
      dataflow.yield %p : tensor<1x1x4x4xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x1x4x4xi8>
  return %0 : tensor<1x1x4x4xi8>
}

// -----

func.func @reflect_pad_value(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8> {
  // expected-error@+1 {{'dataflow.node' op params: a reflect pad has no 'pad_value'}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 6 and 0 <= x < 6 }">, macs = 0 : i64, kind = "pad", params = {pad_mode = "reflect", pad_value = 3 : i64, pads = array<i64: 1, 1, 1, 1>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.pad %a {mode = "reflect", pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
      dataflow.yield %p : tensor<1x1x6x6xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
  return %0 : tensor<1x1x6x6xi8>
}

// -----

func.func @wrap_pad_value(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x4x12xi8> {
  // expected-error@+1 {{'dataflow.node' op params: a wrap pad has no 'pad_value'}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 12 }">, macs = 0 : i64, kind = "pad", params = {pad_mode = "wrap", pad_value = 1 : i64, pads = array<i64: 0, 5, 0, 3>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.pad %a {mode = "wrap", pads = array<i64: 0, 0, 0, 5, 0, 0, 0, 3>} : (tensor<1x1x4x4xi8>) -> tensor<1x1x4x12xi8>
      dataflow.yield %p : tensor<1x1x4x12xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x1x4x12xi8>
  return %0 : tensor<1x1x4x12xi8>
}

// -----

func.func @linear_not_resize(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'linear' belongs to resize layers without 'scale', not pad}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 6 and 0 <= x < 6 }">, macs = 0 : i64, kind = "pad", params = {linear = array<i64: 1, 0, 1, 1, 0, 1>, pads = array<i64: 1, 1, 1, 1>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.pad %a {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
      dataflow.yield %p : tensor<1x1x6x6xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
  return %0 : tensor<1x1x6x6xi8>
}

// -----

func.func @linear_zero_d(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x8x8xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'linear' needs a >= 0 and d >= 1 per axis}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 8 and 0 <= x < 8 }">, macs = 0 : i64, kind = "resize", params = {linear = array<i64: 8, -4, 0, 8, -4, 16>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.resize %a {mode = "linear", sizes = array<i64: 1, 1, 8, 8>} : (tensor<1x1x4x4xi8>) -> tensor<1x1x8x8xi8>
      dataflow.yield %p : tensor<1x1x8x8xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x1x8x8xi8>
  return %0 : tensor<1x1x8x8xi8>
}

// -----

func.func @linear_channels_alone(%x: tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'linear_channels' needs 'linear' (a linear resize layer)}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : 0 <= c < 2 and 0 <= y < 4 and 0 <= x < 4 }">, macs = 0 : i64, kind = "resize", params = {linear_channels = array<i64: 1, 0, 2>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.resize %a {mode = "linear", sizes = array<i64: 1, 2, 4, 4>} : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
      dataflow.yield %p : tensor<1x2x4x4xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
  return %0 : tensor<1x2x4x4xi8>
}

// -----

func.func @linear_channels_zero_d(%x: tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'linear_channels' needs a >= 0 and d >= 1}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : 0 <= c < 2 and 0 <= y < 4 and 0 <= x < 4 }">, macs = 0 : i64, kind = "resize", params = {linear = array<i64: 4, 0, 4, 4, 0, 4>, linear_channels = array<i64: 1, 0, 0>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.resize %a {mode = "linear", sizes = array<i64: 1, 2, 4, 4>} : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
      dataflow.yield %p : tensor<1x2x4x4xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
  return %0 : tensor<1x2x4x4xi8>
}

// -----

func.func @nearest_channels_linear(%x: tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'nearest_channels' belongs to nearest resize layers (without 'linear'), not resize}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : 0 <= c < 2 and 0 <= y < 4 and 0 <= x < 4 }">, macs = 0 : i64, kind = "resize", params = {linear = array<i64: 4, 0, 4, 4, 0, 4>, nearest_channels = array<i64: 1, 0, 2>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.resize %a {mode = "linear", sizes = array<i64: 1, 2, 4, 4>} : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
      dataflow.yield %p : tensor<1x2x4x4xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
  return %0 : tensor<1x2x4x4xi8>
}

// -----

func.func @nearest_channels_zero_d(%x: tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'nearest_channels' needs a >= 0 and d >= 1}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : 0 <= c < 2 and 0 <= y < 4 and 0 <= x < 4 }">, macs = 0 : i64, kind = "resize", params = {nearest_channels = array<i64: 1, 0, 0>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.resize %a {sizes = array<i64: 1, 2, 4, 4>} : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
      dataflow.yield %p : tensor<1x2x4x4xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x2x4x4xi8>
  return %0 : tensor<1x2x4x4xi8>
}

// -----

func.func @perm_not_copy(%x: tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'perm' belongs to copy layers, not pad}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 4 and 0 <= x < 4 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 6 and 0 <= x < 6 }">, macs = 0 : i64, kind = "pad", params = {pads = array<i64: 1, 1, 1, 1>, perm = array<i64: 0, 2, 1>}} ({
    ^bb0(%a: tensor<1x1x4x4xi8>):
      %p = graph.pad %a {pads = array<i64: 0, 0, 1, 1, 0, 0, 1, 1>} : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
      dataflow.yield %p : tensor<1x1x6x6xi8>
  }) : (tensor<1x1x4x4xi8>) -> tensor<1x1x6x6xi8>
  return %0 : tensor<1x1x6x6xi8>
}

// -----

func.func @perm_not_permutation(%x: tensor<1x2x4x6xi8>) -> tensor<1x2x6x4xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'perm' must be a permutation of 0 .. 2}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : 0 <= c < 2 and 0 <= y < 4 and 0 <= x < 6 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : 0 <= c < 2 and 0 <= y < 6 and 0 <= x < 4 }">, macs = 0 : i64, kind = "copy", params = {perm = array<i64: 0, 2, 2>}} ({
    ^bb0(%a: tensor<1x2x4x6xi8>):
      %t = graph.transpose %a {perm = array<i64: 0, 1, 3, 2>} : (tensor<1x2x4x6xi8>) -> tensor<1x2x6x4xi8>
      dataflow.yield %t : tensor<1x2x6x4xi8>
  }) : (tensor<1x2x4x6xi8>) -> tensor<1x2x6x4xi8>
  return %0 : tensor<1x2x6x4xi8>
}

// -----

func.func @input_affine_kind(%x: tensor<1x3xi8>) -> tensor<1x3xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'input_affine' belongs to conv layers, not eltwise}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[i] : 0 <= i < 3 }">],
         writes = #dataflow.map<"{ S[] -> Out[i] : 0 <= i < 3 }">, macs = 0 : i64, kind = "eltwise", params = {input_affine = array<i64: 1, 0, 1, 0, 0, 1>}} ({
    ^bb0(%a: tensor<1x3xi8>):
      dataflow.yield %a : tensor<1x3xi8>
  }) : (tensor<1x3xi8>) -> tensor<1x3xi8>
  return %0 : tensor<1x3xi8>
}

// -----

func.func @input_affine_count(%x: tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'input_affine' needs 4 entries per input channel (2) and 2 bounds, not 6}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : 0 <= c < 2 and 0 <= y < 2 and 0 <= x < 2 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : 0 <= c < 2 and 0 <= y < 2 and 0 <= x < 2 }">, macs = 0 : i64, kind = "conv", params = {kernel = array<i64: 1, 1>, input_affine = array<i64: 1, 0, 1, 0, 0, 1>}} ({
    ^bb0(%a: tensor<1x2x2x2xi8>):
      dataflow.yield %a : tensor<1x2x2x2xi8>
  }) : (tensor<1x2x2x2xi8>) -> tensor<1x2x2x2xi8>
  return %0 : tensor<1x2x2x2xi8>
}

// -----

func.func @input_affine_bounds(%x: tensor<1x1x2x2xi8>) -> tensor<1x1x2x2xi8> {
  // expected-error@+1 {{'dataflow.node' op params: 'input_affine' bounds [5, 1] are out of order}}
  %0 = dataflow.node "n" (%x) {domain = #dataflow.set<"{ S[] }">, reads = [#dataflow.map<"{ S[] -> In0[c, y, x] : c = 0 and 0 <= y < 2 and 0 <= x < 2 }">],
         writes = #dataflow.map<"{ S[] -> Out[c, y, x] : c = 0 and 0 <= y < 2 and 0 <= x < 2 }">, macs = 0 : i64, kind = "conv", params = {kernel = array<i64: 1, 1>, input_affine = array<i64: 1, 0, 1, 0, 5, 1>}} ({
    ^bb0(%a: tensor<1x1x2x2xi8>):
      dataflow.yield %a : tensor<1x1x2x2xi8>
  }) : (tensor<1x1x2x2xi8>) -> tensor<1x1x2x2xi8>
  return %0 : tensor<1x1x2x2xi8>
}
