/* plugin.h: the plugin ABI (what a plugin library exports) and the loader
 * the tools use (nc-opt --load-pass-plugin=X.so, --load-dialect-plugin=X.so).
 *
 * As in MLIR, a plugin is a shared library exporting one C function per kind
 * that returns a description of the plugin:
 *
 *   kind      exported symbol              registration callback
 *   pass      nc_get_pass_plugin_info      register_passes(user_data)
 *   dialect   nc_get_dialect_plugin_info   register_dialects(ctx, user_data)
 *   target    nc_get_target_plugin_info    register_targets(user_data)
 *
 * A pass plugin registers its passes and pipelines once, when it is loaded
 * (nc_pass_register, nc_pipeline_register). A dialect plugin registers its
 * dialects into every context the tool creates afterwards
 * (nc_context_register_dialect), because contexts come and go (one per chunk
 * of --split-input-file) while the plugin stays. Target plugins are loaded
 * like pass plugins; what their callback registers is the target API's
 * business.
 *
 * A plugin is built against the installed headers only
 * (`cc -shared -fPIC $(pkg-config --cflags nc) -o my.so my.c`) and not
 * linked with -lnc: its nc_* references bind to the tool that loads it (the
 * tools export the whole API) or to libnc.so in a program that links it.
 * Loaded plugins are never unloaded: registered tables point into them.
 * Example plugins: examples/plugins/; the guide: docs/plugins.md.
 */
#ifndef NC_PLUGIN_H
#define NC_PLUGIN_H

#include "nc/ir/context.h"

/** Version of the plugin ABI: of nc_plugin_info and of the nc API the
 * callbacks may use. A plugin built for another version is refused. Bumped
 * whenever nc_plugin_info or a public struct plugins fill in changes. */
#define NC_PLUGIN_API_VERSION 2

/** The kinds of plugins; each has its own exported symbol and callback. */
typedef enum nc_plugin_kind {
  NC_PLUGIN_PASS,    /**< passes and named pipelines */
  NC_PLUGIN_DIALECT, /**< dialects (op tables) */
  NC_PLUGIN_TARGET,  /**< targets (the target API registers them) */
} nc_plugin_kind;

/** What a plugin's exported function returns: a pointer to a static struct
 * (typically `static const nc_plugin_info info = {...}`) that stays valid
 * while the plugin is loaded. `api_version` comes first so that the loader
 * can check it before reading anything else. */
typedef struct nc_plugin_info {
  uint32_t api_version; /**< NC_PLUGIN_API_VERSION the plugin was built with */
  const char *name;     /**< short name for messages, e.g. "count-ops" */
  const char *version;  /**< the plugin's own version, e.g. "1.0" (may be NULL) */
  /** The registration callback: set the member of the plugin's kind. */
  union {
    /** NC_PLUGIN_PASS: registers passes and pipelines, once, at load time. */
    void (*register_passes)(void *user_data);
    /** NC_PLUGIN_DIALECT: registers dialects into `ctx`; called for every
     * context created after the plugin is loaded. */
    void (*register_dialects)(nc_context *ctx, void *user_data);
    /** NC_PLUGIN_TARGET: registers targets, once, at load time. */
    void (*register_targets)(void *user_data);
  };
  void *user_data; /**< passed to the callback as is */
} nc_plugin_info;

/** Signature of the exported functions nc_get_pass_plugin_info,
 * nc_get_dialect_plugin_info and nc_get_target_plugin_info. */
typedef const nc_plugin_info *(*nc_plugin_info_fn)(void);

/** Declares the exported function of a plugin of one kind, e.g.
 *   NC_PLUGIN_EXPORT const nc_plugin_info *nc_get_pass_plugin_info(void) { return &info; } */
#if defined(__GNUC__)
#define NC_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define NC_PLUGIN_EXPORT
#endif

/** Plugin functions declared here so that a plugin's definition is checked
 * against the ABI; a plugin defines the one(s) of its kind. */
NC_PLUGIN_EXPORT NC_KEEP const nc_plugin_info *nc_get_pass_plugin_info(void);
/** See nc_get_pass_plugin_info. */
NC_PLUGIN_EXPORT NC_KEEP const nc_plugin_info *nc_get_dialect_plugin_info(void);
/** See nc_get_pass_plugin_info. */
NC_PLUGIN_EXPORT NC_KEEP const nc_plugin_info *nc_get_target_plugin_info(void);

/* --- loading (the tools' side) --------------------------------------------------------- */

/** A loaded plugin; owned by the process-wide list of plugins, never freed. */
typedef struct nc_plugin nc_plugin;

/** The kind's name as the command line spells it ("pass", "dialect",
 * "target"); NC_KEEP static string. */
NC_KEEP const char *nc_plugin_kind_name(nc_plugin_kind kind);
/** The kind's exported symbol name ("nc_get_pass_plugin_info", ...). */
NC_KEEP const char *nc_plugin_kind_symbol(nc_plugin_kind kind);

/** Loads the shared library at `path` as a plugin of `kind`: dlopens it,
 * finds the kind's symbol, checks the API version, then calls the
 * registration callback (passes, targets) or records it for
 * nc_plugin_register_dialects (dialects). The plugin is owned by the
 * process-wide list of loaded plugins. Loading the same library twice
 * for the same kind returns the first plugin. Returns NULL with a one-line
 * message in `err` (errlen bytes; err may be NULL) when the file cannot be
 * loaded, lacks the symbol, returns NULL or has another API version.
 * Thread-compatible: load plugins before starting threads. */
NC_KEEP nc_plugin *nc_plugin_load(const char *path, nc_plugin_kind kind, char *err, size_t errlen);

/** Calls the register_dialects callback of every loaded dialect plugin on
 * `ctx`, in load order (nc_register_all_dialects does this). */
void nc_plugin_register_dialects(nc_context *ctx);

/** The plugin's description as it returned it. */
NC_KEEP const nc_plugin_info *nc_plugin_get_info(NC_KEEP const nc_plugin *p);
/** The path it was loaded from. */
NC_KEEP const char *nc_plugin_get_path(NC_KEEP const nc_plugin *p);
/** Its kind. */
nc_plugin_kind nc_plugin_get_kind(NC_KEEP const nc_plugin *p);
/** Number of loaded plugins and the i-th, in load order. */
size_t nc_plugin_get_num_loaded(void);
/** See nc_plugin_get_num_loaded. */
NC_KEEP nc_plugin *nc_plugin_get_loaded(size_t i);

#endif
