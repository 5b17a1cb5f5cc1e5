/* ods.c: the common type and attribute constraints, trait names, trait
 * queries, and the Markdown reference generated from op tables.
 */
#include "ir-internal.h"

#include <string.h>

/* --- type constraints ----------------------------------------------------------------------- */

static bool p_any(const nc_type *t) { (void)t; return true; }
static bool p_integer(const nc_type *t) { return t->kind == NC_TYPE_INTEGER; }
static bool p_signless(const nc_type *t) { return t->kind == NC_TYPE_INTEGER && t->signedness == NC_SIGNLESS; }
static bool p_index(const nc_type *t) { return t->kind == NC_TYPE_INDEX; }
static bool p_i1(const nc_type *t) { return p_signless(t) && t->width == 1; }
static bool p_float(const nc_type *t) { return nc_type_is_float_kind(t->kind); }
static bool p_sl_or_index(const nc_type *t) { return p_signless(t) || p_index(t); }
static bool container(const nc_type *t) { return t->kind == NC_TYPE_TENSOR || t->kind == NC_TYPE_UNRANKED_TENSOR || t->kind == NC_TYPE_VECTOR; }
static bool p_sl_like(const nc_type *t) { return p_sl_or_index(container(t) ? t->shaped.elt : t); }
static bool p_bool_like(const nc_type *t) { return p_i1(container(t) ? t->shaped.elt : t); }
static bool p_float_like(const nc_type *t) { return p_float(container(t) ? t->shaped.elt : t); }
static bool p_int_or_float_like(const nc_type *t) { return p_sl_like(t) || p_float_like(t); }
static bool p_tensor(const nc_type *t) { return t->kind == NC_TYPE_TENSOR || t->kind == NC_TYPE_UNRANKED_TENSOR; }
static bool p_ranked_tensor(const nc_type *t) { return t->kind == NC_TYPE_TENSOR; }
static bool p_memref(const nc_type *t) { return t->kind == NC_TYPE_MEMREF || t->kind == NC_TYPE_UNRANKED_MEMREF; }
static bool p_function(const nc_type *t) { return t->kind == NC_TYPE_FUNCTION; }

const nc_type_constraint nc_tc_any = {"any type", p_any};
const nc_type_constraint nc_tc_integer = {"integer", p_integer};
const nc_type_constraint nc_tc_signless_integer = {"signless integer", p_signless};
const nc_type_constraint nc_tc_index = {"index", p_index};
const nc_type_constraint nc_tc_i1 = {"1-bit signless integer", p_i1};
const nc_type_constraint nc_tc_float = {"floating-point", p_float};
const nc_type_constraint nc_tc_signless_integer_or_index = {"signless integer or index", p_sl_or_index};
const nc_type_constraint nc_tc_signless_integer_like = {"signless-integer-like", p_sl_like};
const nc_type_constraint nc_tc_bool_like = {"bool-like", p_bool_like};
const nc_type_constraint nc_tc_float_like = {"floating-point-like", p_float_like};
const nc_type_constraint nc_tc_signless_integer_or_float_like = {"signless-integer-like or floating-point-like",
                                                                  p_int_or_float_like};
const nc_type_constraint nc_tc_tensor = {"tensor of any type values", p_tensor};
const nc_type_constraint nc_tc_ranked_tensor = {"ranked tensor of any type values", p_ranked_tensor};
const nc_type_constraint nc_tc_memref = {"memref of any type values", p_memref};
const nc_type_constraint nc_tc_function = {"function type", p_function};

/* --- attribute constraints ------------------------------------------------------------------------ */

static bool a_any(const nc_attr *a) { (void)a; return true; }
static bool a_i64(const nc_attr *a) { return a->kind == NC_ATTR_INTEGER && p_signless(a->type) && a->type->width == 64; }
static bool a_i32(const nc_attr *a) { return a->kind == NC_ATTR_INTEGER && p_signless(a->type) && a->type->width == 32; }
static bool a_index(const nc_attr *a) { return a->kind == NC_ATTR_INTEGER && p_index(a->type); }
static bool a_f32(const nc_attr *a) { return a->kind == NC_ATTR_FLOAT && a->type->kind == NC_TYPE_F32; }
static bool a_f64(const nc_attr *a) { return a->kind == NC_ATTR_FLOAT && a->type->kind == NC_TYPE_F64; }
static bool a_bool(const nc_attr *a) { return a->kind == NC_ATTR_INTEGER && p_i1(a->type); }
static bool a_unit(const nc_attr *a) { return a->kind == NC_ATTR_UNIT; }
static bool a_string(const nc_attr *a) { return a->kind == NC_ATTR_STRING; }
static bool a_flat_sym(const nc_attr *a) { return a->kind == NC_ATTR_SYMBOL_REF && a->symref.n == 0; }
static bool a_sym(const nc_attr *a) { return a->kind == NC_ATTR_SYMBOL_REF; }
static bool a_type(const nc_attr *a) { return a->kind == NC_ATTR_TYPE; }
static bool a_fn_type(const nc_attr *a) { return a->kind == NC_ATTR_TYPE && a->type->kind == NC_TYPE_FUNCTION; }
static bool a_array(const nc_attr *a) { return a->kind == NC_ATTR_ARRAY; }
static bool a_dict(const nc_attr *a) { return a->kind == NC_ATTR_DICTIONARY; }
static bool a_dict_array(const nc_attr *a)
{
  if (a->kind != NC_ATTR_ARRAY)
    return false;
  for (size_t i = 0; i < a->array.n; i++)
    if (a->array.elts[i]->kind != NC_ATTR_DICTIONARY)
      return false;
  return true;
}
static bool a_i64_array(const nc_attr *a) { return a->kind == NC_ATTR_DENSE_ARRAY && p_signless(a->type) && a->type->width == 64; }
static bool a_f32_array(const nc_attr *a) { return a->kind == NC_ATTR_DENSE_ARRAY && a->type->kind == NC_TYPE_F32; }
static bool a_elements(const nc_attr *a) { return a->kind == NC_ATTR_DENSE_ELEMENTS || a->kind == NC_ATTR_DENSE_RESOURCE; }
static bool a_typed(const nc_attr *a) { return a->kind == NC_ATTR_INTEGER || a->kind == NC_ATTR_FLOAT || a_elements(a); }
static bool a_loc(const nc_attr *a) { return a->kind >= NC_ATTR_LOC_UNKNOWN; }

static nc_type *t_i64(nc_context *ctx) { return ctx->int_types[NC_SIGNLESS][64]; }
static nc_type *t_i32(nc_context *ctx) { return ctx->int_types[NC_SIGNLESS][32]; }
static nc_type *t_index(nc_context *ctx) { return ctx->index_type; }
static nc_type *t_f32(nc_context *ctx) { return ctx->f32; }
static nc_type *t_f64(nc_context *ctx) { return ctx->f64; }

const nc_attr_constraint nc_ac_any = {"any attribute", a_any, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_i64 = {"64-bit signless integer attribute", a_i64, NC_ATTR_SYNTAX_IMPLIED_TYPE, t_i64};
const nc_attr_constraint nc_ac_i32 = {"32-bit signless integer attribute", a_i32, NC_ATTR_SYNTAX_IMPLIED_TYPE, t_i32};
const nc_attr_constraint nc_ac_index = {"index attribute", a_index, NC_ATTR_SYNTAX_IMPLIED_TYPE, t_index};
const nc_attr_constraint nc_ac_f32 = {"32-bit float attribute", a_f32, NC_ATTR_SYNTAX_IMPLIED_TYPE, t_f32};
const nc_attr_constraint nc_ac_f64 = {"64-bit float attribute", a_f64, NC_ATTR_SYNTAX_IMPLIED_TYPE, t_f64};
const nc_attr_constraint nc_ac_bool = {"bool attribute", a_bool, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_unit = {"unit attribute", a_unit, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_string = {"string attribute", a_string, NC_ATTR_SYNTAX_STRING};
const nc_attr_constraint nc_ac_symbol_name = {"string attribute (symbol name)", a_string, NC_ATTR_SYNTAX_SYMBOL_NAME};
const nc_attr_constraint nc_ac_flat_symbol_ref = {"flat symbol reference attribute", a_flat_sym, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_symbol_ref = {"symbol reference attribute", a_sym, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_type = {"any type attribute", a_type, NC_ATTR_SYNTAX_TYPE};
const nc_attr_constraint nc_ac_function_type = {"type attribute of function type", a_fn_type, NC_ATTR_SYNTAX_TYPE};
const nc_attr_constraint nc_ac_array = {"array attribute", a_array, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_dict_array = {"Array of dictionary attributes", a_dict_array, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_dictionary = {"dictionary of named attribute values", a_dict, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_i64_array = {"i64 dense array attribute", a_i64_array, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_f32_array = {"f32 dense array attribute", a_f32_array, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_typed = {"TypedAttr instance", a_typed, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_elements = {"dense or resource elements attribute", a_elements, NC_ATTR_SYNTAX_FULL};
const nc_attr_constraint nc_ac_location = {"location attribute", a_loc, NC_ATTR_SYNTAX_FULL};

/* --- traits ------------------------------------------------------------------------------------------ */

static const struct { uint64_t bit; const char *name; } trait_names[] = {
  {NC_TRAIT_PURE, "Pure"},
  {NC_TRAIT_COMMUTATIVE, "Commutative"},
  {NC_TRAIT_TERMINATOR, "Terminator"},
  {NC_TRAIT_ISOLATED_FROM_ABOVE, "IsolatedFromAbove"},
  {NC_TRAIT_SAME_OPERANDS_AND_RESULT_TYPE, "SameOperandsAndResultType"},
  {NC_TRAIT_SAME_TYPE_OPERANDS, "SameTypeOperands"},
  {NC_TRAIT_SAME_OPERANDS_AND_RESULT_SHAPE, "SameOperandsAndResultShape"},
  {NC_TRAIT_SAME_OPERANDS_AND_RESULT_ELEMENT_TYPE, "SameOperandsAndResultElementType"},
  {NC_TRAIT_SYMBOL_TABLE, "SymbolTable"},
  {NC_TRAIT_SYMBOL, "Symbol"},
  {NC_TRAIT_NO_TERMINATOR, "NoTerminator"},
  {NC_TRAIT_SINGLE_BLOCK, "SingleBlock"},
  {NC_TRAIT_RETURN_LIKE, "ReturnLike"},
  {NC_TRAIT_CONSTANT_LIKE, "ConstantLike"},
  {NC_TRAIT_GRAPH_REGION, "GraphRegion"},
  {NC_TRAIT_ATTR_SIZED_OPERAND_SEGMENTS, "AttrSizedOperandSegments"},
  {NC_TRAIT_ATTR_SIZED_RESULT_SEGMENTS, "AttrSizedResultSegments"},
  {NC_TRAIT_ELEMENTWISE, "Elementwise"},
  {NC_TRAIT_IDEMPOTENT, "Idempotent"},
  {NC_TRAIT_INVOLUTION, "Involution"},
  {NC_TRAIT_RECURSIVE_MEMORY_EFFECTS, "RecursiveMemoryEffects"},
  {NC_TRAIT_MEM_READ, "MemRead"},
  {NC_TRAIT_MEM_WRITE, "MemWrite"},
  {NC_TRAIT_MEM_ALLOC, "MemAlloc"},
  {NC_TRAIT_MEM_FREE, "MemFree"},
  {NC_TRAIT_HAS_PARENT, "HasParent"},
  {NC_TRAIT_CALLABLE, "CallableOpInterface"},
  {NC_TRAIT_CALL, "CallOpInterface"},
};

const char *nc_trait_name(uint64_t trait)
{
  for (size_t i = 0; i < NC_COUNTOF(trait_names); i++)
    if (trait_names[i].bit == trait)
      return trait_names[i].name;
  return "?";
}

bool nc_op_has_trait(const nc_op *op, uint64_t traits) { return (op->info->traits & traits) == traits && traits; }

bool nc_op_has_graph_regions(const nc_op *op)
{
  return !op->info->def || (op->info->traits & NC_TRAIT_GRAPH_REGION);
}

bool nc_op_is_pure(nc_op *op)
{
  uint64_t t = op->info->traits;
  if (!op->info->def)
    return false;
  if (t & (NC_TRAIT_MEM_READ | NC_TRAIT_MEM_WRITE | NC_TRAIT_MEM_ALLOC | NC_TRAIT_MEM_FREE))
    return false;
  if (t & NC_TRAIT_PURE)
    return true;
  if (t & NC_TRAIT_RECURSIVE_MEMORY_EFFECTS) {
    for (uint32_t r = 0; r < op->n_regions; r++)
      for (nc_block *b = nc_op_regions(op)[r].first; b; b = b->next)
        for (nc_op *o = b->first; o; o = o->next)
          if (!nc_op_is_pure(o) && !(o->info->traits & NC_TRAIT_TERMINATOR && o->info->traits & NC_TRAIT_RETURN_LIKE))
            return false;
    return true;
  }
  return false;
}

bool nc_op_is_constant(const nc_op *op)
{
  return (op->info->traits & NC_TRAIT_CONSTANT_LIKE) && op->n_operands == 0 && op->n_results == 1;
}

nc_attr *nc_op_get_constant_value(nc_op *op)
{
  if (!nc_op_is_constant(op) || !op->info->def->fold)
    return NULL;
  nc_fold_result r = {0};
  if (!op->info->def->fold(op, NULL, &r))
    return NULL;
  return r.attr;
}

int nc_op_def_find_attr(const nc_op_def *def, const char *name)
{
  for (size_t i = 0; i < def->n_attrs; i++)
    if (!strcmp(def->attrs[i].name, name))
      return (int)i;
  return -1;
}

/* --- documentation ------------------------------------------------------------------------------------- */

static const char *arity_suffix(nc_arity a) { return a == NC_ARITY_VARIADIC ? " (variadic)" : a == NC_ARITY_OPTIONAL ? " (optional)" : ""; }

static void doc_op(const nc_op_def *d, FILE *out)
{
  fprintf(out, "### `%s`\n\n", d->name);
  if (d->summary)
    fprintf(out, "_%s_\n\n", d->summary);
  if (d->assembly_format)
    fprintf(out, "Syntax:\n\n```\n%s %s\n```\n\n", d->name, d->assembly_format);
  else if (d->parse)
    fprintf(out, "Syntax: custom (see description).\n\n");
  if (d->description)
    fprintf(out, "%s\n\n", d->description);
  if (d->traits) {
    fprintf(out, "Traits:");
    bool first = true;
    for (size_t i = 0; i < NC_COUNTOF(trait_names); i++)
      if (d->traits & trait_names[i].bit) {
        fprintf(out, "%s `%s`", first ? "" : ",", trait_names[i].name);
        first = false;
      }
    fprintf(out, "\n\n");
  }
  if (d->n_attrs) {
    fprintf(out, "#### Attributes\n\n| Attribute | Constraint | Description |\n| :-------: | ---------- | ----------- |\n");
    for (size_t i = 0; i < d->n_attrs; i++) {
      const nc_attr_def *a = &d->attrs[i];
      fprintf(out, "| `%s` | %s", a->name, a->constraint ? a->constraint->summary : "any attribute");
      if (a->optional)
        fprintf(out, " (optional%s%s%s)", a->default_value ? ", default `" : "", a->default_value ? a->default_value : "",
                a->default_value ? "`" : "");
      fprintf(out, " | %s |\n", a->summary ? a->summary : "");
    }
    fprintf(out, "\n");
  }
  const struct { const char *title; const nc_value_def *v; size_t n; } groups[] = {
    {"Operands", d->operands, d->n_operands}, {"Results", d->results, d->n_results}};
  for (size_t g = 0; g < 2; g++) {
    if (!groups[g].n)
      continue;
    fprintf(out, "#### %s\n\n| %s | Description |\n| :-----: | ----------- |\n", groups[g].title,
            g ? "Result" : "Operand");
    for (size_t i = 0; i < groups[g].n; i++) {
      const nc_value_def *v = &groups[g].v[i];
      fprintf(out, "| `%s` | %s%s%s%s |\n", v->name, v->type ? v->type->summary : "any type", arity_suffix(v->arity),
              v->summary ? ": " : "", v->summary ? v->summary : "");
    }
    fprintf(out, "\n");
  }
  if (d->n_regions) {
    fprintf(out, "#### Regions\n\n");
    for (size_t i = 0; i < d->n_regions; i++)
      fprintf(out, "- `%s`%s%s%s\n", d->regions[i].name, d->regions[i].single_block ? " (single block)" : "",
              d->regions[i].summary ? ": " : "", d->regions[i].summary ? d->regions[i].summary : "");
    fprintf(out, "\n");
  }
  if (d->n_canonicalize) {
    fprintf(out, "Canonicalization patterns:");
    for (size_t i = 0; i < d->n_canonicalize; i++)
      fprintf(out, "%s `%s`", i ? "," : "", d->canonicalize[i].name);
    fprintf(out, "\n\n");
  }
  if (d->fold)
    fprintf(out, "Has a folder.\n\n");
}

bool nc_dialect_write_docs(nc_context *ctx, const char *dialect, FILE *out)
{
  const nc_dialect_def *d = nc_context_lookup_dialect(ctx, dialect, strlen(dialect));
  if (!d)
    return false;
  fprintf(out, "<!-- Generated by `nc-opt --dump-dialect-docs=%s` from the op tables; do not edit. -->\n\n", d->name);
  fprintf(out, "# '%s' Dialect\n\n", d->name);
  if (d->summary)
    fprintf(out, "_%s_\n\n", d->summary);
  if (d->description)
    fprintf(out, "%s\n\n", d->description);
  fprintf(out, "## Operations\n\n");
  for (size_t i = 0; i < d->n_ops; i++)
    doc_op(&d->ops[i], out);
  nc_dialect_storage_defs_write_docs(d->name, "#", d->attrs, d->n_attrs, out);
  nc_dialect_storage_defs_write_docs(d->name, "!", d->types, d->n_types, out);
  return true;
}
