/* parser.h: the parser's state, shared by lexer.c, parse_attrs.c and
 * parse_ops.c (internal to ir/).
 *
 * One token of lookahead over a byte range of a registered source buffer.
 * SSA names are resolved through a per-isolated-scope array for numeric
 * names (%0, %1, ... which is what printed IR uses) and a hash table for the
 * rest, with an undo log so leaving a region forgets its definitions.
 */
#ifndef NC_IR_PARSER_H
#define NC_IR_PARSER_H

#include "ir-internal.h"

typedef enum tok_kind {
  T_EOF, T_ERROR,
  T_BARE,      /* bare identifier or keyword */
  T_PERCENT,   /* %name */
  T_CARET,     /* ^name */
  T_AT,        /* @name or @"string" */
  T_HASH,      /* #name */
  T_EXCL,      /* !name */
  T_INT, T_FLOAT, T_STRING,
  T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_LSQUARE, T_RSQUARE, T_LESS, T_GREATER,
  T_COMMA, T_COLON, T_EQUAL, T_ARROW, T_QUESTION, T_STAR, T_PLUS, T_MINUS, T_ELLIPSIS, T_BAR,
  T_META_BEGIN, /* {-# */
  T_META_END,   /* #-} */
} tok_kind;

typedef struct token {
  tok_kind kind;
  const char *start;
  size_t len;
} token;

/* A name table entry (non-numeric SSA names and block labels). */
typedef struct name_entry {
  const char *name;
  uint32_t len;
  uint32_t scope;   /* isolated scope id for values, region scope id for blocks */
  uint8_t kind;     /* 0 = value, 1 = block, 2 = result group size, 3 = resource */
  void *ptr;        /* nc_value* or nc_block* */
  uint64_t hash;
} name_entry;

typedef struct name_table {
  name_entry *slots;
  size_t cap, count, tombs;
} name_table;

/* An undo-log record: a definition to forget when its region scope ends. */
typedef struct undo {
  const char *name;
  uint32_t len;
} undo;

/* One isolated-from-above name scope. */
typedef struct iso_scope {
  uint32_t id;
  nc_value **nums; /* numeric names */
  size_t n_nums;
  size_t fwd_start; /* index into p->fwd when the scope started */
  size_t root_depth; /* p->n_bscopes inside the isolated region's own body (SIZE_MAX: none) */
} iso_scope;

/* A forward reference placeholder still waiting for its definition. */
typedef struct fwd_ref {
  nc_op *placeholder;
  const char *name;
  uint32_t len;
  uint32_t number;
  uint32_t scope;
  nc_location loc;
} fwd_ref;

/* A deferred `loc(#alias)` of an op or block argument, resolved at the end.
 * Until then the location is `at` (the position of the `#alias` token): a
 * marker no other op or argument can have, so the final walk finds every
 * copy of it wherever custom parsers moved it. */
typedef struct deferred_loc {
  const char *name;
  size_t len;
  nc_location at;
} deferred_loc;

typedef struct alias_entry {
  const char *name;
  size_t len;
  bool is_type;
  void *value;
} alias_entry;

/* Block label scope of one region being parsed. */
typedef struct block_scope {
  uint32_t id;
  size_t n_forward; /* blocks referenced but not yet defined */
} block_scope;

struct nc_asm_parser {
  nc_context *ctx;
  const char *base;  /* start of the source buffer (offsets are relative to it) */
  const char *cur, *end;
  unsigned source_id;
  uint32_t parse_id;
  token tok;
  bool failed;
  int depth;
  nc_arena *arena;

  name_table names;
  iso_scope *isos;
  size_t n_isos, cap_isos;
  uint32_t next_scope_id;
  uint32_t *log;           /* numeric names, or 0x80000000 | index into name_log */
  size_t n_log, cap_log;
  undo *name_log;
  size_t n_name_log, cap_name_log;

  fwd_ref *fwd;
  size_t n_fwd, cap_fwd, n_fwd_live;
  nc_op_info *fwd_info;

  block_scope *bscopes;
  size_t n_bscopes, cap_bscopes;

  alias_entry *aliases;
  size_t n_aliases, cap_aliases;
  deferred_loc *dlocs;
  size_t n_dlocs, cap_dlocs;

  const char **default_dialects; /* stack, NULL entries allowed */
  size_t n_defaults, cap_defaults;
  const nc_op_def *cur_def;

  nc_attr *external_resources;
  bool mapped;             /* the source is a file mapping whose pages may be dropped */
  /* per-op temporary vectors come from a slab of 256-byte blocks with a free
   * list: a million ops would otherwise cost millions of malloc/free pairs */
  char *slab;
  void *slab_free;
  const char *released;    /* text before this has been released */
  struct storage_cache_entry *storage_cache; /* see dialect_attrs.c; allocated on first use */
};

/* The op under construction while a custom parser runs. */
struct nc_op_builder {
  nc_asm_parser *p;
  nc_op_info *info;
  nc_location loc;
  nc_value **operands;
  size_t n_operands, cap_operands;
  nc_type **types;
  size_t n_types, cap_types;
  nc_named_attr *attrs;
  size_t n_attrs, cap_attrs;
  nc_attr *props;
  nc_region **regions;
  size_t n_regions, cap_regions;
  nc_block **succs;
  size_t n_succs, cap_succs;
  size_t n_result_names;
  nc_attr *whole_dict;      /* a parsed attribute dictionary not yet split */
};

#define NC_MAX_NESTING 1000

/* lexer.c */
void lex_init(nc_asm_parser *p, const char *start, const char *end);
void lex_next(nc_asm_parser *p);
void lex_reset(nc_asm_parser *p, const char *pos); /* re-lex from pos */
nc_location tok_loc(nc_asm_parser *p);
nc_location loc_at(nc_asm_parser *p, const char *pos);
bool perr(nc_asm_parser *p, const char *fmt, ...) NC_PRINTF(2, 3);
bool perr_at(nc_asm_parser *p, const char *pos, const char *fmt, ...) NC_PRINTF(3, 4);
bool tok_is_kw(const nc_asm_parser *p, const char *kw);
bool consume(nc_asm_parser *p, tok_kind k);
bool expect(nc_asm_parser *p, tok_kind k, const char *what);
const char *tok_spelling(tok_kind k);
/* Decodes a string token into a malloc'ed buffer; NULL (with an error) on bad escapes. */
char *string_value(nc_asm_parser *p, const token *t, size_t *len);
/* Integer token value; false on overflow of 64 bits. */
bool int_value(const token *t, uint64_t *out);
/* Parser depth guard. */
bool enter(nc_asm_parser *p);
static inline void leave(nc_asm_parser *p) { p->depth--; }

/* Drops the resident pages of a mapped source's text in [start, end) (the
 * parser is done with it: decoded blobs, text far behind the cursor). The
 * mapping stays valid, so a later diagnostic re-reads the file. */
void nc_parser_release_text(nc_asm_parser *p, const char *start, const char *end);

/* Releases a decoded blob's string token and the already-parsed text up to
 * 2 MiB before it: the kernel maps page-cache folios of up to 2 MiB whole, so
 * touching the token's first page also maps the previous blob's tail. */
void nc_parser_release_token_text(nc_asm_parser *p, const char *start, size_t len);

/* Releases the text more than 4 MB behind the cursor (called once per op). */
void nc_parser_release_behind(nc_asm_parser *p);

/* parse_attrs.c */
nc_type *parse_type(nc_asm_parser *p);
bool at_type_start(nc_asm_parser *p);
nc_attr *parse_attr(nc_asm_parser *p, nc_type *hint);
bool at_attr_start(nc_asm_parser *p);
nc_attr *parse_attr_dict(nc_asm_parser *p);      /* current token is '{' */
bool parse_loc_inner(nc_asm_parser *p, nc_location *out, nc_location *slot); /* after `loc(` */
bool parse_trailing_loc(nc_asm_parser *p, nc_location *slot); /* optional `loc(...)` */
nc_attr *parse_symbol_ref(nc_asm_parser *p);
bool parse_function_result_types(nc_asm_parser *p, nc_type ***types, size_t *n);
bool parse_type_list_parens(nc_asm_parser *p, nc_type ***types, size_t *n); /* `(T, ...)` */
alias_entry *find_alias(nc_asm_parser *p, const char *name, size_t len);
void *parse_vec_push(nc_asm_parser *p, void **vec, size_t *n, size_t *cap, size_t elt);
/* Like parse_vec_push for short-lived vectors; release them with parse_tmp_free. */
void *parse_tmp_push(nc_asm_parser *p, void **vec, size_t *n, size_t *cap, size_t elt);
void parse_tmp_free(nc_asm_parser *p, void *vec);

/* dialect_attrs.c: parses a dialect body `mnemonic...` with the definition
 * of a registered dialect (`at` is where the attribute or type starts);
 * *handled is false if the dialect defines no such mnemonic. */
void *parse_dialect_storage(nc_asm_parser *p, const nc_dialect_def *dd, bool is_type, const char *at,
                            const char *body, size_t len, bool *handled);

/* parse_ops.c */
bool parse_op(nc_asm_parser *p, nc_block *block);
nc_resource *parse_resource(nc_asm_parser *p, const char *name, size_t len);
bool parse_region_body(nc_asm_parser *p, nc_region *r, size_t n_args, const nc_asm_argument *args, bool isolated);

#endif
