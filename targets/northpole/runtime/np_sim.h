/* np_sim.h: the NorthPole simulator's state, shared by its loader
 * (loader.c), its event loop and timing model (sim.c) and its int8
 * datapath (datapath.c). See docs/targets/northpole.md for the model. */
#ifndef NC_TARGETS_NORTHPOLE_NP_SIM_H
#define NC_TARGETS_NORTHPOLE_NP_SIM_H

#include <stdbool.h>
#include <stdint.h>

#include "../../common/runtime/sim.h"
#include "nc/runtime/nc_trace.h"
#include "np_bits.h"
#include "np_format.h"
#include "np_noc.h"

/** A set of flat element indices (see np_format.h). */
typedef struct np_block {
  int64_t start, len, stride, count;
} np_block;

/** Consecutive flat elements [start, start + len) (tensors hold at most 2^24). */
typedef struct np_run {
  int32_t start, len;
} np_run;

/** The blocks of one iteration (or one input-stream step). */
typedef struct np_iter {
  uint64_t macs, vector_ops;
  uint32_t n_blocks;
  const np_block *blocks;
  int64_t elements;
} np_iter;

typedef struct np_instr {
  uint32_t op;
  uint32_t zero; /* the reserved word after the opcode (must be 0; a send's network) */
  int64_t a, b, c, d;
  bool multicast; /* a send: it and the next send leave as one message (NP_SEND_MULTICAST) */
  uint32_t frame, frames; /* a recv or send runs on inferences f with f mod frames == frame (frames 0: all) */
  uint32_t slot;          /* a recv or send: the peer's slot on its core (NP_SLOT_SHIFT) */
  int64_t offset;         /* a recv: where the message's elements land in the operand (NP_FLAG_RECV_OFFSETS) */
} np_instr;

typedef struct np_shape {
  int rank;
  int64_t dims[NP_MAX_RANK];
  int64_t elements;
} np_shape;

typedef struct np_buffer {
  char name[16];
  uint32_t kind, operand;
  int64_t offset, bytes;
  int64_t first, last; /* lifetime in program positions */
} np_buffer;

/** A message in flight on the NoC (or from the host). */
typedef struct np_msg {
  struct np_msg *next;
  struct np_msg *hnext; /* the next in its np_tile.msg_bucket chain */
  int src;              /* tile index, -1 for the host */
  int iter_operand;     /* for host messages: the operand they feed */
  size_t inference;
  int64_t iter;         /* the sender's iteration (or input-stream step) */
  uint64_t arrival;     /* cycle at which it is in the receiver's SRAM */
  uint64_t link_delay;  /* how much later than on idle links (other messages held them) */
  const np_iter *what;  /* the element blocks carried */
  int8_t *data;         /* their values, in block order */
  bool received;        /* served a recv already (it serves every recv of (src, iter) on the tile) */
  int64_t credit;       /* from the host: the credits of its receiver's buffer it took (host_credit.c) */
} np_msg;

typedef struct np_tile {
  /* from the binary */
  int32_t x, y;
  uint32_t kind, flags;
  uint32_t bits;        /* the layer's width (flags >> NP_WIDTH_SHIFT; 0 read as 8) */
  int32_t out_min, out_max; /* its saturation range (narrowed by NP_FLAG_CLAMP's bounds) */
  uint32_t rate;        /* its MACs per cycle (the chip's rate at its width) */
  char node[32];
  int32_t output_index;
  uint32_t n_operands;
  int32_t host_input[NP_MAX_OPERANDS];
  np_shape in[NP_MAX_OPERANDS], out;
  int64_t ch_lo, ch_hi;
  int64_t in_lo, in_hi;  /* operand 0's input channels it sums over (all, unless NP_FLAG_PARTIAL / NP_FLAG_REDUCE) */
  uint32_t n_partials;   /* NP_FLAG_REDUCE: the tiles whose partial sums it adds */
  uint32_t replica, replicas; /* NP_FLAG_REPLICA: runs on inferences f with f mod replicas == replica (else 0, 1) */
  uint32_t slot;              /* NP_FLAG_SHARED: which of the tiles on its core (else 0) */
  int32_t core_next;          /* the next tile on its core (-1: none); set by the first run */
  bool shared;                /* another tile is on its core (set by the first run) */
  int64_t kernel[2], stride[2], pad[4], dilation[2], group;
  int32_t zero_point;
  uint32_t n_requant, n_bias;
  int32_t *multiplier, *shift, *bias;
  uint32_t n_affine;  /* NP_FLAG_IN_AFFINE: operand 0's channels, mapped on receive (np_inbuf_map) */
  int32_t *affine;    /* their (w, b, m, s) each, then lo, hi */
  int64_t affine_plane; /* elements per channel of operand 0 */
  const int8_t *weights;
  uint64_t weight_bytes;
  uint64_t weight_elems;  /* the int8 weights at t->weights: weight_bytes, or more when they came packed */
  uint32_t n_buffers;
  np_buffer *buffers;
  int64_t in_capacity[NP_MAX_OPERANDS]; /* bytes of the input buffer per operand (-1: none declared) */
  int64_t out_capacity;                 /* bytes of the output buffer (-1: none declared) */
  int64_t *last_send;                   /* per iteration: program position of its last send (-1: none) */
  uint32_t n_iters;
  np_iter *iters;
  np_block *blocks;
  uint32_t n_instrs;
  np_instr *prog;
  /* per element of each operand, a bit (np_bits.h): set if an iteration reads
   * it (it then counts in the buffer while it is there) */
  uint64_t *read[NP_MAX_OPERANDS];
  /* the elements whose last reader is iteration i, as runs:
   * release_runs[k][release_off[k][i] .. release_off[k][i + 1]) (inbuf.c) */
  int64_t *release_off[NP_MAX_OPERANDS];
  np_run *release_runs[NP_MAX_OPERANDS];
  bool plan_borrowed; /* read[0], release_off[0] and release_runs[0] are another tile's, with the same reads (loader.c) */
  /* simulation state */
  int8_t *in_data[NP_MAX_OPERANDS], *out_data; /* from the sim's arena pool while the tile runs (tile_pool.c), else NULL */
  uint64_t *valid[NP_MAX_OPERANDS]; /* per input element, a bit: it has arrived (np_bits.h) */
  uint64_t *computed; /* per output element, a bit: computed in this inference (np_bits.h) */
  int8_t *scratch; /* the datapath's fast path (im2col rows, accumulators) */
  int32_t *wsum128; /* the datapath's 128 x each local channel's weight sum (VNNI dots), NULL until used */
  int32_t *psum;       /* per output element: NP_FLAG_PARTIAL its sums, NP_FLAG_REDUCE the partial sums received */
  uint32_t *psum_count; /* NP_FLAG_REDUCE: partial sums received per output element */
  size_t scratch_cap;
  int64_t live[NP_MAX_OPERANDS], peak[NP_MAX_OPERANDS];
  int64_t out_live, out_peak; /* computed elements not yet sent */
  np_msg **inbox, **inbox_tail; /* per inference of the run: the messages sent to the tile, in order */
  size_t n_inbox;
  np_msg **msg_bucket;          /* the inbox hashed by (src, iter, operand, inference), chains in inbox order */
  size_t n_buckets, n_msgs;
  size_t pc, inference;
  bool blocked; /* its recv at pc found no message; nothing changes that until one is posted to it (sim.c tile_ready) */
  /* the scheduler's answer for the entry this tile belongs to (its core's first tile, or itself when it has a core
   * of its own; sim.c np_sim_run): whether a tile of the entry can go on, which and when. Only a step of one of
   * the entry's tiles or a message posted to one changes it, so it is kept until then (valid). */
  struct np_tile *entry;
  bool entry_valid, entry_ready;
  int32_t entry_pick;
  uint64_t entry_at;
  uint64_t t;
  bool done;
  /* figures */
  uint64_t busy, macs, bytes_sent;
  uint64_t send_cycles, data_wait_cycles, core_wait_cycles; /* the rest of its time: NoC port, recv, shared core */
  uint64_t link_wait_cycles; /* the part of data_wait_cycles that links held by other messages caused */
} np_tile;

/** The host's input streams (one per network input). */
typedef struct np_stream {
  bool multicast; /* each step once to all the tiles that receive it (NP_STREAM_MULTICAST) */
  uint32_t n_iters;
  np_iter *iters;
  np_block *blocks;
} np_stream;

/** The chip a binary is for (its NP_SECTION_CHIP). */
typedef struct np_chip {
  uint32_t rows, cols;
  uint64_t clock_hz;
  uint32_t sram_bytes, macs_per_cycle, hop_latency_cycles, link_bytes_per_cycle;
  uint64_t macs_per_inference;
  uint32_t macs_per_cycle_4, macs_per_cycle_2; /* at 4 and 2 bits (older binaries: the 8-bit rate) */
} np_chip;

/** The default of nc-run --frame-lead (np_sim.frame_lead): a shared core's
 * tie goes to a tile this many frames behind the tile listed first. */
#define NP_FRAME_LEAD 4

/** A block of the simulator's arena: bytes [at, at + len) from its start. */
typedef struct np_span {
  size_t at, len;
} np_span;

/** The entries whose tiles can go on, ordered by when and which (ready_queue.c), and the entries whose
 * answer must be asked again (dirty: each once, its entry_valid false). Sized for n_tiles by np_ready_reset. */
typedef struct np_ready {
  int32_t *heap;  /* entries (tile indexes), a binary min-heap on (entry_at, entry_pick) */
  int32_t *pos;   /* per tile: its place in heap, -1 if not there */
  int32_t *dirty; /* entries to ask again */
  size_t n, n_dirty, cap;
} np_ready;

typedef struct np_sim {
  np_chip chip;
  size_t n_inputs, n_outputs;
  nc_ncb_tensor *inputs, *outputs;
  size_t n_tiles;
  np_tile *tiles;
  np_stream *streams;
  int32_t *tile_at; /* rows x cols: the first tile placed on each core (-1: none); built by the first run */
  uint64_t *core_free; /* rows x cols: when a shared core's last instruction ended (sim.c core_clock) */
  uint32_t frame_lead; /* nc-run --frame-lead=N: a shared core's tie goes to a tile N or more frames behind the
                          other, else to the tile listed first (0: always the first; sim.c core_turn) */
  nc_trace *trace;  /* NULL: runs are not traced (nc_trace.h) */
  void (*progress)(size_t done, size_t total, void *userData); /* NULL: no progress (nc_sim.h) */
  void *progress_data;
  np_ready ready;   /* the scheduler's ready entries (ready_queue.c), reset by each run */
  np_noc noc;       /* the mesh links (noc.c); set up by the first run */
  void *arena;      /* the tiles' computed flags and, as a pool, their in_data and out_data, in one lazily zeroed
                       mapping made by the first run (tile_pool.c): only pages a tile touches cost a fault,
                       and a tile that finished the run gives its data back for the tiles that start later to
                       reuse; NULL: each was calloc'd (no mapping, or no run yet) */
  size_t arena_len;
  bool own_memory;             /* NC_SIM_OWN_MEMORY set: tiles keep their data for the whole run, and each derives its own
                                  read plan (loader.c), as before they shared; tests compare the two */
  size_t pool_start, pool_top; /* the arena's part for tile data, and how much of it a run has carved so far */
  np_span *pool_free;          /* data blocks given back by tiles that finished the run (tile_pool.c np_tile_release) */
  size_t n_pool_free, pool_free_cap;
  size_t n_unpacked;   /* packed weights (NP_FLAG_PACKED_WEIGHTS) unpacked to int8 by the loader, which tiles borrow */
  int8_t **unpacked;
  uint64_t *unpacked_at; /* the offset of each in the weights section (UINT64_MAX: inline in a tile record) */
  /* last run */
  size_t batch;
  uint64_t total_cycles, first_end, last_end, latency;
  uint64_t host_wait_cycles; /* the host's waits for room in the input buffers (host_credit.c) */
  uint64_t *frame_end; /* per inference: when its last output element arrived */
} np_sim;

/** Bytes a send of `elements` of tile t's output puts on the NoC: its int32
 * partial sums 4 each; activations packed at the tile's width, two 4-bit
 * or four 2-bit values a byte (the datapath keeps them in int8 containers). */
static inline int64_t np_message_bytes(const np_tile *t, int64_t elements)
{
  return t->flags & NP_FLAG_PARTIAL ? 4 * elements : (elements * (int64_t)t->bits + 7) / 8;
}

/** Tile data (tile_pool.c): makes the arena (each tile's computed flags and
 * the pool of data blocks) on the first run; if it cannot be mapped, calloc's
 * every tile's buffers for good. */
void np_tile_buffers(np_sim *s);
/** Gives every tile's data block back and empties the pool (a run starts). */
void np_pool_reset(np_sim *s);
/** Gives tile t its data block (in_data, out_data) from the pool, unless it has one. */
void np_tile_acquire(np_sim *s, np_tile *t);
/** Gives tile t's block back to the pool (it has run every inference of the
 * run); kept when s->own_memory or when there is no arena. */
void np_tile_release(np_sim *s, np_tile *t);

/** Ready queue (ready_queue.c): sizes q for n_tiles entries and empties it (no ready, no dirty entry). */
void np_ready_reset(np_ready *q, size_t n_tiles);
/** Frees q's tables. */
void np_ready_destroy(np_ready *q);
/** Puts entry e (a tile index) in its place after its answer (entry_ready, entry_at, entry_pick) was asked
 * again: added, moved or, when it cannot go on, removed. */
void np_ready_update(np_ready *q, const np_tile *tiles, int32_t e);
/** The entry that goes first (least entry_at, then entry_pick), or -1 if none is ready. */
int32_t np_ready_first(const np_ready *q);

/** Frees the messages of every inference in a tile's inbox (sim.c). */
void np_clear_inbox(np_tile *t);

/** Input buffers (inbuf.c): copies `len` received elements from `data` to
 * operand k's elements from e0 on, marks them arrived and counts those an
 * iteration reads into t->live[k]. */
void np_inbuf_arrive(np_tile *t, uint32_t k, int64_t e0, const int8_t *data, int64_t len);
/** Drops the elements of operand k whose last reader is iteration `iter`
 * from the buffer (no longer arrived, no longer counted). */
/** NP_FLAG_IN_AFFINE: maps operand 0's elements [e0, e0 + len), just
 * arrived, through their channels' folded batch-norm and relu (np_format.h). */
void np_inbuf_map(np_tile *t, int64_t e0, int64_t len);
void np_inbuf_release(np_tile *t, uint32_t k, int64_t iter);
/** Sets t->read[k] and the release runs of operand k from each element's
 * last reading iteration (-1: none); needs t->in[k] and t->n_iters. */
void np_inbuf_plan(np_tile *t, uint32_t k, const int32_t *last_read);
/** Copies the elements of `it`'s blocks from `from` to `to`, in block order;
 * returns their number. */
int64_t np_gather(const np_iter *it, const int8_t *from, int8_t *to);
/** Clears the bit of every element of `it` in `bits` (np_bits.h). */
void np_clear_bits(const np_iter *it, uint64_t *bits);
/** Whether the bit of every element of `it` is set in `bits`; if not, the
 * first (in block order) that is clear in *unset. */
bool np_all_bits(const np_iter *it, const uint64_t *bits, int64_t *unset);
/** The host's input link per inference (host_link.c): in *bytes the input
 * elements some program receives from the host, each step once; in
 * *busy_cycles the cycles the link is busy sending them as the programs ask
 * (a multicast stream's step once, another's once per receiving tile). */
void np_host_link_load(const np_sim *s, uint64_t *bytes, uint64_t *busy_cycles);

/** Loader (loader.c): checks the sections and builds the state. */
void *np_sim_load(const nc_ncb *ncb, char *err, size_t errlen, void *userData);
void np_sim_destroy(void *state, void *userData);

/** Datapath (datapath.c): computes the elements of iteration `it` of tile
 * `t` into t->out_data, reading inputs only where t->valid says they have
 * arrived. On a read of missing data returns false with the flat index in
 * *operand / *missing. */
bool np_compute_iteration(np_tile *t, const np_iter *it, uint32_t *operand, int64_t *missing);
/** The `operand` np_compute_iteration reports when a reducer's compute
 * needs partial sums of output element *missing that have not arrived. */
#define NP_PSUM_OPERAND UINT32_MAX
/** Calls fn for every input element that output element `e` of tile `t`
 * reads (the datapath's read pattern, used to find last readers). */
/** A key such that output elements with the same key read the same input
 * elements (conv: group and pixel; matmul: row; others: the element), and
 * in *n_keys (if not NULL) the number of keys. */
int64_t np_read_key(const np_tile *t, int64_t e, int64_t *n_keys);
/** np_read_key of e, and how it goes on: the key of e + j is key + j * *step
 * for 0 <= j < *span (the loader's walk over runs without a division per
 * element). */
int64_t np_read_key_span(const np_tile *t, int64_t e, int64_t *step, int64_t *span);
void np_foreach_read(const np_tile *t, int64_t e, void (*fn)(uint32_t operand, int64_t idx, void *user), void *user);
/** Whether tiles a and b are convs or matmuls of one operand whose output
 * elements with equal np_read_key read the same input elements (the fields
 * np_foreach_read reads; the output channels each computes may differ):
 * the loader then lets b borrow a's read plan if their iterations list the
 * same keys (loader.c analyse_iterations). */
bool np_same_reads(const np_tile *a, const np_tile *b);
/** For a conv, pooling, copy, table or residual-add tile: sets
 * last_read_of[k][idx] = iter for every element idx of operand k that the n
 * output elements from e on read (what np_foreach_read enumerates for each,
 * a row range at a time) and returns the number of reads np_foreach_read
 * would enumerate; -1 (nothing set) for the other kinds. */
int64_t np_mark_reads(const np_tile *t, int64_t e, int64_t n, int32_t iter, int32_t *const *last_read_of);

/** Runs the statement (the variadic argument) with `idx` set to every
 * element of the blocks of `it`, in order. */
#define NP_FOREACH_ELEMENT(it, idx, ...)                                                                           \
  for (uint32_t np_b_ = 0; np_b_ < (it)->n_blocks; np_b_++)                                                         \
    for (int64_t np_i_ = 0; np_i_ < (it)->blocks[np_b_].count; np_i_++)                                             \
      for (int64_t idx = (it)->blocks[np_b_].start + np_i_ * (it)->blocks[np_b_].stride,                            \
                   np_e_ = idx + (it)->blocks[np_b_].len;                                                           \
           idx < np_e_; idx++) {                                                                                     \
        __VA_ARGS__                                                                                                 \
      }

#endif
