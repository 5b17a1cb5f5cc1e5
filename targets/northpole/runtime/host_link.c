/* host_link.c: what the host's input link carries per inference, for the
 * roofline's host-I/O ceiling (np_sim_figures, docs/targets/northpole.md).
 *
 * The simulator's host sends every input step a program receives on one
 * link of the chip's link width, back to back while the input buffers have
 * room (sim.c, step_host; host_credit.c): a
 * multicast stream's step once, another stream's step once per tile that
 * receives it, each ceil(bytes / width) cycles. The ceiling counts each
 * step's bytes once at the full width -- the least any mapping can send --
 * so it bounds every mapping; the busy cycles are what this mapping sends.
 * Outputs do not count: the simulator delivers them over the mesh into the
 * corner core without a host-side serialisation (a PCIe link is full duplex).
 */
#include <stdlib.h>

#include "../../common/runtime/rt_util.h"
#include "np_sim.h"

void np_host_link_load(const np_sim *s, uint64_t *bytes, uint64_t *busy_cycles)
{
  uint64_t width = s->chip.link_bytes_per_cycle ? s->chip.link_bytes_per_cycle : 1;
  *bytes = *busy_cycles = 0;
  for (size_t in = 0; in < s->n_inputs; in++) {
    const np_stream *st = &s->streams[in];
    uint8_t *seen = nc_rt_calloc(st->n_iters, 1);
    for (size_t i = 0; i < s->n_tiles; i++)
      for (uint32_t k = 0; k < s->tiles[i].n_instrs; k++) {
        const np_instr *p = &s->tiles[i].prog[k];
        if (p->op != NP_OP_RECV || p->a >= 0 || s->tiles[i].host_input[p->c] != (int32_t)in || p->d < 0 ||
            p->d >= (int64_t)st->n_iters)
          continue;
        uint64_t step = (uint64_t)st->iters[p->d].elements, cycles = (step + width - 1) / width;
        if (!seen[p->d]) {
          seen[p->d] = 1;
          *bytes += step; /* int8 inputs: a byte per element */
          *busy_cycles += cycles;
        } else if (!st->multicast) {
          *busy_cycles += cycles;
        }
      }
    free(seen);
  }
}
