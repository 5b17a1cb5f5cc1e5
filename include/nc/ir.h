/* ir.h: the whole IR API in one include (context, types, attributes, ops,
 * diagnostics, op definitions, symbols, textual syntax). */
#ifndef NC_IR_H
#define NC_IR_H

#include "nc/ir/context.h"
#include "nc/ir/types.h"
#include "nc/ir/attrs.h"
#include "nc/ir/ops.h"
#include "nc/ir/diag.h"
#include "nc/ir/ods.h"
#include "nc/ir/symbol.h"
#include "nc/ir/asm.h"
#include "nc/ir/dialect_attrs.h"
#include "nc/ir/threading.h"

#endif
