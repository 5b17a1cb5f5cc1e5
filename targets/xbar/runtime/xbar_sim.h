/* xbar_sim.h: the xbar target's binary sections (docs/targets/xbar.md has
 * them byte by byte) and the simulator's state, shared by the loader
 * (loader.c), the crossbar datapath (datapath.c) and the event model and
 * figures (sim.c). Plain C: this is in the runtime library. */
#ifndef NC_TARGETS_XBAR_SIM_H
#define NC_TARGETS_XBAR_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nc/support/base.h"
#include "xbar_control.h"

/** Section types. */
enum {
  XBAR_SECTION_CHIP = 1,  /**< id 0: the chip's figures */
  XBAR_SECTION_STAGE = 2, /**< id = stage index, in pipeline order */
};

/** Stage kinds (the layer kinds the target runs). */
enum {
  XBAR_KIND_CONV = 1,     /**< crossbar MVMs, one per output pixel */
  XBAR_KIND_MATMUL = 2,   /**< crossbar MVMs, one per inference */
  XBAR_KIND_MAX_POOL = 3, /**< digital unit */
  XBAR_KIND_COPY = 4,     /**< digital unit: row-major order kept (flatten, reshape) */
  XBAR_KIND_MOVE = 5,     /**< digital unit: nearest resize by whole factors, pad, channel shuffle */
  XBAR_KIND_RESIZE = 6,   /**< digital unit: linear resize (H, W and optionally C) */
};

/** A move stage's pad mode (the stage's flags). */
enum { XBAR_PAD_CONSTANT = 0, XBAR_PAD_REFLECT = 1, XBAR_PAD_EDGE = 2, XBAR_PAD_WRAP = 3 };

/** Limits the loader enforces (a hostile binary cannot exhaust memory). */
#define XBAR_MAX_RANK 8
#define XBAR_MAX_OPERANDS 4
#define XBAR_MAX_STAGES 4096
#define XBAR_MAX_ELEMENTS ((int64_t)1 << 24)
#define XBAR_MAX_TOTAL_ELEMENTS ((int64_t)1 << 26)
#define XBAR_MAX_MESH 256
#define XBAR_MAX_XBAR_DIM 4096
#define XBAR_MAX_CONTROL_WORDS (1u << 20)
#define XBAR_NAME_LEN 32

/** The chip (section XBAR_SECTION_CHIP). */
typedef struct xbar_chip {
  char name[XBAR_NAME_LEN];
  uint32_t mesh_rows, mesh_cols;
  uint32_t xbar_rows, xbar_cols;
  uint32_t weight_bits, dac_bits, input_bits, adc_bits;
  uint32_t mvm_latency_cycles;    /**< one MVM of one input bit-slice */
  uint32_t vector_ops_per_cycle;  /**< digital unit */
  uint32_t hop_latency_cycles, link_bytes_per_cycle;
  uint64_t sram_bytes, clock_hz;
} xbar_chip;

/** A tensor shape (tensor coordinates: the batch dim of 1 dropped). */
typedef struct xbar_shape {
  uint32_t rank;
  int64_t dims[XBAR_MAX_RANK];
  int64_t elements;
} xbar_shape;

/** One input of a stage. */
typedef struct xbar_operand {
  int32_t source;       /**< >= 0: the stage producing it; < 0: network input -1 - source */
  xbar_shape shape;     /**< the tensor */
  xbar_shape producer;  /**< the producer's iteration domain (a box; the input source's P[y, x]) */
  xbar_control control; /**< consumer iteration -> the producer iteration it waits for */
  int64_t *words;       /**< the program (owned) */
} xbar_operand;

/** One stage: a layer and its crossbars or digital core. */
typedef struct xbar_stage {
  uint32_t kind;
  uint32_t flags;       /**< a move stage's pad mode (XBAR_PAD_*); 0 otherwise */
  char name[XBAR_NAME_LEN];
  int32_t output;       /**< the network output it is (-1: none) */
  uint32_t n_operands;
  xbar_operand ops[XBAR_MAX_OPERANDS];
  xbar_shape out;
  xbar_shape domain;    /**< iteration domain extents (a box), rank 0 = one iteration */
  int64_t kernel[2], stride[2], pad[4], dilation[2], group;
  int32_t input_zp, weight_zp, output_zp, clamp_min, clamp_max;
  uint32_t n_requant, n_bias;
  int32_t *multiplier, *shift, *bias; /* owned; a linear resize's bias holds its 6 or 9 coordinate coefficients */
  /* crossbar mapping */
  uint32_t rows, cols;                 /**< the weight matrix: rows = inputs (C/group*kh*kw or K), cols = outputs */
  uint32_t row_tiles, col_tiles, replicas;
  uint32_t n_cores;                    /**< replicas * row_tiles * col_tiles, or 1 for a digital stage */
  uint32_t *cores;                     /**< core index (y * mesh_cols + x), [replica][row tile][col tile] (owned) */
  const int8_t *matrix;                /**< rows x cols, row-major (points into the binary) */
  int64_t *col_sums;                   /**< per column, the sum of its weights (owned) */
  /* noise: one conductance matrix per crossbar (NULL in ideal mode) */
  double **conductance;                /**< [n_cores] tile matrices, row-major in the tile (owned) */
  double *adc_step;                    /**< [n_cores] each crossbar's ADC step (a power of two) */
  /* simulation */
  int8_t *values;                      /**< the output of the current inference (owned) */
  int64_t *write_rank;                 /**< per output element, the iteration that wrote it (-1: none yet) */
  uint64_t *finish;                    /**< per iteration of the current inference, when its output is ready */
  uint64_t *xbar_free, *digital_free;  /**< per replica */
  int64_t last_wait[XBAR_MAX_OPERANDS];  /**< the producer iteration last sent for each operand (-1: none) */
  int64_t last_dest[XBAR_MAX_OPERANDS];  /**< and the core it went to */
  int64_t iterations;
} xbar_stage;

/** Per-core counters of a run. */
typedef struct xbar_core_stats {
  int32_t stage;            /**< -1: unused */
  uint64_t mvms, vector_ops;
  uint64_t mvm_busy, digital_busy;
  uint64_t cells;           /**< crossbar cells holding weights */
  uint64_t bytes_sent;      /**< on the mesh: partial sums, results (to a consumer or the host) */
  uint64_t sent_until;      /**< for the trace: when its last send of the run so far arrives */
  uint64_t psum_held, psum_peak; /**< partial-sum bytes waiting for the digital unit: now, and the run's peak */
  uint64_t psum_traced;     /**< the last value of its trace counter */
} xbar_core_stats;

/** A change of the partial-sum bytes a core holds (arrival +, use -), applied in time order. */
typedef struct xbar_hold {
  uint64_t at;
  uint32_t core;
  int64_t delta;
} xbar_hold;

/** The simulator's state. */
typedef struct xbar_state {
  xbar_chip chip;
  size_t n_inputs, n_outputs;
  xbar_shape *inputs, *outputs;
  uint32_t n_stages;
  xbar_stage *stages;
  int32_t *output_stage;   /**< per network output, its stage */
  bool noisy;
  uint64_t noise_seed;
  double noise_sigma;
  /* figures of the last run */
  size_t inferences;
  uint64_t total_cycles, latency, first_end, last_end;
  uint64_t mvms_per_inference;
  xbar_core_stats *cores;  /**< mesh_rows * mesh_cols */
  struct nc_trace *trace;  /**< NULL: runs are not traced (nc/runtime/nc_trace.h) */
  size_t inference;        /**< the one being simulated (for the trace) */
  xbar_hold *holds;        /**< changes not yet applied (they come out of time order across iterations) */
  size_t n_holds, cap_holds;
  void (*progress)(size_t done, size_t total, void *userData); /**< NULL: no progress (nc_sim.h) */
  void *progress_data;
} xbar_state;

/** Cycles of one MVM: one per input bit-slice. */
uint64_t xbar_mvm_cycles(const xbar_chip *chip);

/** Loads and checks the sections; NULL with a message. */
NC_GIVE xbar_state *xbar_load(NC_KEEP const void *ncb, char *err, size_t errlen);
/** Frees the state. */
void xbar_state_destroy(NC_TAKE xbar_state *s);

/** Sets (or with sigma < 0, clears) the noise model: seeded Gaussian
 * conductance noise of `sigma` times each layer's weight range, ADC
 * clipping at the chip's ADC bits. */
void xbar_set_noise(xbar_state *s, uint64_t seed, double sigma);

/** Evaluates the control programs of stage `st` at its iteration `rank`
 * (coordinates `c`): waits[op] is the rank of the producer iteration that
 * operand op waits for (-1: none). False with a message when a program
 * overflows or names an iteration outside the producer's domain. */
bool xbar_iteration_waits(const xbar_stage *st, int64_t rank, const int64_t *c, int64_t *waits, char *err,
                          size_t errlen);

/** Computes iteration `rank` (coordinates `c`) of stage `st` on the current
 * inference's values (`inputs`: the network inputs of this inference);
 * false with a message when it reads an element not yet written, or written
 * by a producer iteration after the one its control waited for (waits[]). */
bool xbar_compute_iteration(xbar_state *s, xbar_stage *st, int64_t rank, const int64_t *c, const int64_t *waits,
                            const int8_t *const *inputs, char *err, size_t errlen);

/** One crossbar's MVM over rows [r0, r1) and columns [c0, c1) of a stage's
 * matrix with input vector x (length r1 - r0), into y (length c1 - c0):
 * exact in ideal mode; bit-serial with noisy conductances and ADC clipping
 * with noise. `tile` indexes the stage's cores. */
void xbar_mvm(const xbar_state *s, const xbar_stage *st, uint32_t tile, uint32_t r0, uint32_t r1, uint32_t c0,
              uint32_t c1, const int8_t *x, int64_t *y);

/** The fixed-point requantization of layer.h (round half to even) for output channel ch. */
int32_t xbar_requantize(const xbar_stage *st, int64_t ch, int64_t acc);

#endif
