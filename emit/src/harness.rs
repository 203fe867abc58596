//! Host harnesses: a C program (OpenCL) or a CUDA program that reads a kernel's inputs from
//! a text file, launches it with its configuration and writes its final arrays.
//!
//! The text format, in and out, one item per line: `param NAME VALUE`,
//! `global NAME COUNT V...` and `shared NAME GROUPS WORDS V...` (all groups, in order).
//! Values are decimal 32-bit words. A global array the input does not mention is zero.

use crate::kpl_to_c::{Arg, Emitted};
use kpl_lang::Launch;
use std::fmt::Write;

/// Text as a C string literal: `\\` and `"` escaped, a newline ending a line of the
/// literal, every other control character (and `?`, against trigraphs) as a 3-digit octal
/// escape, so no text can end the literal and give the C compiler code.
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' => out.push_str("\\n\"\n\""),
            c if c.is_control() && (c as u32) < 0x80 || c == '?' => out.push_str(&format!("\\{:03o}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Reads a kernel source file given on the harness's command line.
const READ_SOURCE: &str = r#"static const char *read_source(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { perror(path); exit(2); }
  fseek(f, 0, SEEK_END); long len = ftell(f); fseek(f, 0, SEEK_SET);
  char *text = (char *)calloc((size_t)len + 1, 1);
  if (fread(text, 1, (size_t)len, f) != (size_t)len) { perror(path); exit(2); }
  fclose(f);
  return text;
}
"#;

const COMMON: &str = r#"#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct { const char *name; char kind; unsigned count; unsigned *data; unsigned value; } Item;

static unsigned *words(FILE *f, unsigned n) {
  unsigned *d = (unsigned *)calloc(n ? n : 1, sizeof(unsigned));
  for (unsigned i = 0; i < n; i++) if (fscanf(f, "%u", &d[i]) != 1) { fprintf(stderr, "input: too few values\n"); exit(2); }
  return d;
}

/* Fill the items from the input file (params, global arrays, shared arrays' contents). */
static void load(const char *path, Item *items, int n) {
  FILE *f = fopen(path, "r");
  if (!f) { perror(path); exit(2); }
  char kind[16], name[256];
  while (fscanf(f, "%15s %255s", kind, name) == 2) {
    /* The item of this name and kind: a param, a global array, a shared array's contents. */
    char want = kind[0] == 'p' ? 'p' : kind[0] == 'g' ? 'g' : 'i';
    int k = -1;
    for (int i = 0; i < n; i++) if (strcmp(items[i].name, name) == 0 && items[i].kind == want) k = i;
    if (strcmp(kind, "param") == 0) {
      unsigned v; if (fscanf(f, "%u", &v) != 1) exit(2);
      if (k >= 0) items[k].value = v;
    } else if (strcmp(kind, "global") == 0) {
      unsigned c; if (fscanf(f, "%u", &c) != 1) exit(2);
      unsigned *d = words(f, c);
      if (k >= 0) { unsigned m = c < items[k].count ? c : items[k].count; memcpy(items[k].data, d, m * sizeof(unsigned)); }
      free(d);
    } else if (strcmp(kind, "shared") == 0) {
      unsigned g, w; if (fscanf(f, "%u %u", &g, &w) != 2) exit(2);
      unsigned *d = words(f, g * w);
      if (k >= 0) { unsigned m = g * w < items[k].count ? g * w : items[k].count; memcpy(items[k].data, d, m * sizeof(unsigned)); }
      free(d);
    } else { fprintf(stderr, "input: unknown item `%s`\n", kind); exit(2); }
  }
  fclose(f);
}

static void save(const char *path, Item *items, int n, unsigned groups) {
  FILE *f = fopen(path, "w");
  if (!f) { perror(path); exit(2); }
  for (int i = 0; i < n; i++) {
    if (items[i].kind == 'g') fprintf(f, "global %s %u", items[i].name, items[i].count);
    else if (items[i].kind == 'f') fprintf(f, "shared %s %u %u", items[i].name, groups, items[i].count / groups);
    else continue;
    for (unsigned j = 0; j < items[i].count; j++) fprintf(f, " %u", items[i].data[j]);
    fprintf(f, "\n");
  }
  fclose(f);
}
"#;

/// The items table: one entry per kernel argument, with buffer sizes. `global_len` gives
/// the number of words of each global array (unsized ones included).
fn items(e: &Emitted, launch: Launch, global_len: &dyn Fn(&str) -> u32) -> (String, usize) {
    let groups = launch.num_groups() as u32;
    let mut out = String::from("  Item items[] = {\n");
    for a in &e.args {
        let line = match a {
            Arg::Param(p) => format!("    {{\"{p}\", 'p', 0, 0, 0}},"),
            Arg::Global(g) => {
                let n = global_len(g).max(1);
                format!("    {{\"{g}\", 'g', {n}u, (unsigned *)calloc({n}u, sizeof(unsigned)), 0}},")
            }
            Arg::SharedInit { array, n } => {
                format!("    {{\"{array}\", 'i', {}u, (unsigned *)calloc({}u, sizeof(unsigned)), 0}},", n * groups, n * groups)
            }
            Arg::SharedFinal { array, n } => {
                format!("    {{\"{array}\", 'f', {}u, (unsigned *)calloc({}u, sizeof(unsigned)), 0}},", n * groups, n * groups)
            }
            Arg::Local { array, n } => format!("    {{\"{array}\", 'l', {n}u, 0, 0}},"),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("  };\n");
    (out, e.args.len())
}

/// A C program running the kernel through OpenCL (build it with `cc FILE -lOpenCL`).
pub fn opencl_host(e: &Emitted, launch: Launch, global_len: &dyn Fn(&str) -> u32) -> String {
    let (table, n) = items(e, launch, global_len);
    let mut s = String::from(
        "/* Generated by kpl: host harness for an OpenCL kernel.\n   Usage: PROGRAM IN.txt OUT.txt [KERNEL.cl]: with KERNEL.cl, run that source (same kernel\n   name and arguments) instead of the one built in, e.g. to reduce a difference by hand. */\n",
    );
    s.push_str("#define CL_TARGET_OPENCL_VERSION 120\n#include <CL/cl.h>\n");
    s.push_str(COMMON);
    let _ = writeln!(s, "static const char *SOURCE = {};\n", c_string(&e.source));
    s.push_str(READ_SOURCE);
    s.push_str("#define CHECK(x) do { cl_int err_ = (x); if (err_ != CL_SUCCESS) { fprintf(stderr, \"%s: OpenCL error %d\\n\", #x, err_); exit(3); } } while (0)\n\n");
    s.push_str("int main(int argc, char **argv) {\n  if (argc != 3 && argc != 4) { fprintf(stderr, \"usage: %s IN.txt OUT.txt [KERNEL.cl]\\n\", argv[0]); return 2; }\n  if (argc == 4) SOURCE = read_source(argv[3]);\n");
    s.push_str(&table);
    let _ = writeln!(s, "  int n = {n};\n  load(argv[1], items, n);");
    let _ = writeln!(
        s,
        "  /* Each shared array's final buffer is the one after its initial contents. */\n  for (int i = 0; i + 1 < n; i++) if (items[i].kind == 'i') memcpy(items[i + 1].data, items[i].data, items[i].count * sizeof(unsigned));"
    );
    s.push_str(r#"  cl_platform_id platform; cl_device_id device; cl_int err;
  CHECK(clGetPlatformIDs(1, &platform, NULL));
  CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
  cl_context ctx = clCreateContext(NULL, 1, &device, NULL, NULL, &err); CHECK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, device, 0, &err); CHECK(err);
  cl_program prog = clCreateProgramWithSource(ctx, 1, &SOURCE, NULL, &err); CHECK(err);
  if (clBuildProgram(prog, 1, &device, "-cl-fp32-correctly-rounded-divide-sqrt -w", NULL, NULL) != CL_SUCCESS) {
    char log[65536]; clGetProgramBuildInfo(prog, device, CL_PROGRAM_BUILD_LOG, sizeof log, log, NULL);
    fprintf(stderr, "build failed:\n%s\n", log); return 3;
  }
"#);
    let _ = writeln!(s, "  cl_kernel k = clCreateKernel(prog, \"{}\", &err); CHECK(err);", e.name);
    let _ = writeln!(s, "  cl_mem bufs[{}];", n.max(1));
    s.push_str(r#"  for (int i = 0; i < n; i++) {
    if (items[i].kind == 'p') { CHECK(clSetKernelArg(k, i, sizeof(unsigned), &items[i].value)); continue; }
    if (items[i].kind == 'l') { CHECK(clSetKernelArg(k, i, items[i].count * sizeof(unsigned), NULL)); continue; }
    bufs[i] = clCreateBuffer(ctx, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, items[i].count * sizeof(unsigned), items[i].data, &err); CHECK(err);
    CHECK(clSetKernelArg(k, i, sizeof(cl_mem), &bufs[i]));
  }
"#);
    let g = launch.groups;
    let t = launch.threads;
    let _ = writeln!(
        s,
        "  size_t global[3] = {{{}, {}, {}}}, local[3] = {{{}, {}, {}}};",
        g[0] as u64 * t[0] as u64,
        g[1] as u64 * t[1] as u64,
        g[2] as u64 * t[2] as u64,
        t[0],
        t[1],
        t[2]
    );
    s.push_str(r#"  CHECK(clEnqueueNDRangeKernel(q, k, 3, NULL, global, local, 0, NULL, NULL));
  for (int i = 0; i < n; i++)
    if (items[i].kind == 'g' || items[i].kind == 'f')
      CHECK(clEnqueueReadBuffer(q, bufs[i], CL_TRUE, 0, items[i].count * sizeof(unsigned), items[i].data, 0, NULL, NULL));
  CHECK(clFinish(q));
"#);
    let _ = writeln!(s, "  save(argv[2], items, n, {}u);\n  return 0;\n}}", launch.num_groups());
    s
}

/// A CUDA program (kernel and host) running the kernel (build it with `nvcc --fmad=false`).
pub fn cuda_program(e: &Emitted, launch: Launch, global_len: &dyn Fn(&str) -> u32) -> String {
    let (table, n) = items(e, launch, global_len);
    let mut s = String::from("/* Generated by kpl: a CUDA kernel and its host harness. Usage: PROGRAM IN.txt OUT.txt */\n");
    s.push_str(&e.source);
    s.push('\n');
    s.push_str(COMMON);
    s.push_str("#define CHECK(x) do { cudaError_t err_ = (x); if (err_ != cudaSuccess) { fprintf(stderr, \"%s: %s\\n\", #x, cudaGetErrorString(err_)); exit(3); } } while (0)\n\n");
    s.push_str("int main(int argc, char **argv) {\n  if (argc != 3) { fprintf(stderr, \"usage: %s IN.txt OUT.txt\\n\", argv[0]); return 2; }\n");
    s.push_str(&table);
    let _ = writeln!(s, "  int n = {n};\n  load(argv[1], items, n);");
    s.push_str("  for (int i = 0; i + 1 < n; i++) if (items[i].kind == 'i') memcpy(items[i + 1].data, items[i].data, items[i].count * sizeof(unsigned));\n");
    let _ = writeln!(s, "  unsigned *dev[{}];", n.max(1));
    s.push_str("  for (int i = 0; i < n; i++) if (items[i].kind != 'p') {\n    CHECK(cudaMalloc(&dev[i], items[i].count * sizeof(unsigned)));\n    CHECK(cudaMemcpy(dev[i], items[i].data, items[i].count * sizeof(unsigned), cudaMemcpyHostToDevice));\n  }\n");
    let args: Vec<String> = e
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| match a {
            Arg::Param(_) => format!("items[{i}].value"),
            _ => format!("dev[{i}]"),
        })
        .collect();
    let g = launch.groups;
    let t = launch.threads;
    let _ = writeln!(
        s,
        "  {}<<<dim3({}, {}, {}), dim3({}, {}, {})>>>({});\n  CHECK(cudaGetLastError());\n  CHECK(cudaDeviceSynchronize());",
        e.name,
        g[0],
        g[1],
        g[2],
        t[0],
        t[1],
        t[2],
        args.join(", ")
    );
    s.push_str("  for (int i = 0; i < n; i++) if (items[i].kind == 'g' || items[i].kind == 'f')\n    CHECK(cudaMemcpy(items[i].data, dev[i], items[i].count * sizeof(unsigned), cudaMemcpyDeviceToHost));\n");
    let _ = writeln!(s, "  save(argv[2], items, n, {}u);\n  return 0;\n}}", launch.num_groups());
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn no_text_ends_a_c_string() {
        let lit = super::c_string("a\"; system(\"rm\"); //\\\r??/\x07z\nnext");
        let inner = &lit[1..lit.len() - 1];
        // Every quote inside is escaped, and no raw control character is left.
        let mut escaped = false;
        for c in inner.chars() {
            assert!(!c.is_control() || c == '\n', "{lit}");
            if c == '"' && !escaped {
                // Only the line joins the newline escape makes: `\n"` newline `"`.
                continue;
            }
            escaped = c == '\\' && !escaped;
        }
        assert!(!inner.contains("??/"), "{lit}");
        assert!(lit.contains("\\\"; system(\\\"rm\\\")"), "{lit}");
    }
}
