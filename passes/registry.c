/* registry.c: the one table of nc's passes and named pipelines. Adding a
 * pass is one line here plus its file. Test passes (passes/test/) are kept
 * in tables of their own: a release tool offers them only when asked
 * (nc-opt --enable-test-passes), so users never meet a pass that crashes
 * on purpose. */
#include "nc/passes/passes.h"

#define NC_PASS(name) extern const nc_pass_def name;
#define NC_PIPELINE(name) extern const nc_pipeline_def name;
#define NC_TEST_PASS(name) NC_PASS(name)
#define NC_TEST_PIPELINE(name) NC_PIPELINE(name)
#include "registry.def"
#undef NC_PASS
#undef NC_PIPELINE
#undef NC_TEST_PASS
#undef NC_TEST_PIPELINE

static const nc_pass_def *const all_passes[] = {
#define NC_PASS(name) &name,
#define NC_PIPELINE(name)
#define NC_TEST_PASS(name)
#define NC_TEST_PIPELINE(name)
#include "registry.def"
#undef NC_PASS
#undef NC_PIPELINE
#undef NC_TEST_PASS
#undef NC_TEST_PIPELINE
  NULL,
};

static const nc_pipeline_def *const all_pipelines[] = {
#define NC_PASS(name)
#define NC_PIPELINE(name) &name,
#define NC_TEST_PASS(name)
#define NC_TEST_PIPELINE(name)
#include "registry.def"
#undef NC_PASS
#undef NC_PIPELINE
#undef NC_TEST_PASS
#undef NC_TEST_PIPELINE
  NULL,
};

static const nc_pass_def *const test_passes[] = {
#define NC_PASS(name)
#define NC_PIPELINE(name)
#define NC_TEST_PASS(name) &name,
#define NC_TEST_PIPELINE(name)
#include "registry.def"
#undef NC_PASS
#undef NC_PIPELINE
#undef NC_TEST_PASS
#undef NC_TEST_PIPELINE
  NULL,
};

static const nc_pipeline_def *const test_pipelines[] = {
#define NC_PASS(name)
#define NC_PIPELINE(name)
#define NC_TEST_PASS(name)
#define NC_TEST_PIPELINE(name) &name,
#include "registry.def"
#undef NC_PASS
#undef NC_PIPELINE
#undef NC_TEST_PASS
#undef NC_TEST_PIPELINE
  NULL,
};

void nc_register_all_passes(void)
{
  for (const nc_pass_def *const *p = all_passes; *p; p++)
    nc_pass_register(*p);
  for (const nc_pipeline_def *const *p = all_pipelines; *p; p++)
    nc_pipeline_register(*p);
}

void nc_register_test_passes(void)
{
  for (const nc_pass_def *const *p = test_passes; *p; p++)
    nc_pass_register(*p);
  for (const nc_pipeline_def *const *p = test_pipelines; *p; p++)
    nc_pipeline_register(*p);
}
