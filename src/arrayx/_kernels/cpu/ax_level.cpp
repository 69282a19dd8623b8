// One ISA level's kernel tables. setup.py compiles this file once per level, with that level's
// compiler flags and -DAX_LEVEL_NS=<level> -DAX_LEVEL_FILL=fill_kernel_set_<level>: every
// kernel template is instantiated in the level's own namespace (ax_types.hpp).
#include "ax_dispatch.hpp"
#include "ax_gather.hpp"
#include "ax_ops.hpp"
#include "ax_reduce.hpp"
#include "ax_skinny.hpp"
#include "ax_vsort.hpp"

namespace ax {
void AX_LEVEL_FILL(KernelSet* k);
}

void ax::AX_LEVEL_FILL(KernelSet* k) {
    for (int c = 0; c < NCODES; ++c) {
        for (int op = 0; op < NUNARY; ++op) k->unary[op][c] = unary_kernel(op, c);
        for (int op = 0; op < NBINARY; ++op) k->binary[op][c] = binary_kernel(op, c);
        for (int d = 0; d < NCODES; ++d) k->cast[c][d] = cast_kernel(c, d);
        for (int op = 0; op < NFOLDS; ++op) {
            k->fold[op][c] = fold_kernel(op, c);
            k->fold_init[op][c] = fold_init_kernel(op, c);
        }
        for (int op = 0; op < 2; ++op) {
            k->scan[op][c] = scan_kernel(op, c);
            k->total[op][c] = total_kernel(op, c);
        }
        k->where[c] = where_kernel(c);
        k->squared_deviations[c] = squared_deviations_kernel(c);
        k->products[c] = products_kernel(c);
        k->argextreme[c] = argextreme_kernel(c);
        k->gather_blocks[c] = gather_blocks_kernel(c);
        k->scatter_blocks[c] = scatter_blocks_kernel(c);
    }
    fill_table<VsortRows>(k->sort_rows);
    fill_table<VsortLong>(k->sort_long);
    fill_table<PackedArgsort>(k->packed_argsort);
    fill_table<SkinnyMaker>(k->skinny);
    k->take = &take_1d;
}
