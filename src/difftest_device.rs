//! The devices `kpl difftest` compares the interpreter with: an OpenCL implementation
//! (loaded at run time) and CUDA (the emitted program built with `nvcc` and run on the GPU).

use crate::difftest::{arguments, inputs_text};
use crate::opencl::{ArgValue, Limits, OpenCl};
use kpl_emit::{harness, Emitted, Target};
use kpl_lang::Launch;
use kpl_semantics::Inputs;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

/// Why a device run gave no arrays to compare.
pub enum Failure {
    /// The device (or its compiler) rejected the kernel or failed running it: a difference.
    Differs(String),
    /// Nothing is known about the device's answer (a file could not be written, say).
    Skipped(String),
}

/// A device one kernel is compared on; it keeps what it built between input sets.
pub trait Device {
    /// The language the kernel is emitted in for this device.
    fn target(&self) -> Target;
    /// Put before a difference in reports ("" for OpenCL, whose messages came first).
    fn label(&self) -> &'static str;
    /// Run the emitted kernel on these inputs: the arguments, with their buffers as the
    /// device left them.
    fn run(&mut self, e: &Emitted, launch: Launch, inputs: &Inputs, sizes: &BTreeMap<String, u32>) -> Result<Vec<ArgValue>, Failure>;
}

/// The OpenCL platform, with the kernel built for the current source.
pub struct OpenClDevice<'a> {
    cl: &'a OpenCl,
    built: Option<(String, *mut std::ffi::c_void)>,
}

impl<'a> OpenClDevice<'a> {
    pub fn new(cl: &'a OpenCl) -> Self {
        OpenClDevice { cl, built: None }
    }
}

impl Device for OpenClDevice<'_> {
    fn target(&self) -> Target {
        Target::OpenCl
    }

    fn label(&self) -> &'static str {
        ""
    }

    fn run(&mut self, e: &Emitted, launch: Launch, inputs: &Inputs, sizes: &BTreeMap<String, u32>) -> Result<Vec<ArgValue>, Failure> {
        // Rebuild only when the source changes (unsized shared arrays take their size from
        // the run).
        if let Some(why) = beyond_opencl_limits(&self.cl.limits, e, launch) {
            return Err(Failure::Skipped(why));
        }
        if self.built.as_ref().map(|b| &b.0) != Some(&e.source) {
            if let Some((_, k)) = self.built.take() {
                self.cl.release_kernel(k);
            }
            let k = self.cl.build(&e.source, &e.name).map_err(Failure::Differs)?;
            self.built = Some((e.source.clone(), k));
        }
        let Some((_, k)) = self.built else { unreachable!("built just above") };
        let group = launch.threads.iter().map(|&t| u64::from(t)).product::<u64>();
        if let Some(max) = self.cl.kernel_max_group(k).filter(|&max| group > max) {
            return Err(Failure::Skipped(format!("the OpenCL device runs this kernel in groups of at most {max} work-items; the launch has {group}")));
        }
        let mut args = arguments(e, launch, inputs, sizes);
        self.cl.launch(k, &mut args, launch.groups, launch.threads).map_err(|err| Failure::Differs(format!("the device run failed: {err}")))?;
        Ok(args)
    }
}

impl Drop for OpenClDevice<'_> {
    fn drop(&mut self) {
        if let Some((_, k)) = self.built.take() {
            self.cl.release_kernel(k);
        }
    }
}

/// Bytes of shared (local) memory a group of the emitted kernel uses: a word per element.
fn shared_bytes(e: &Emitted) -> u64 {
    e.args.iter().map(|a| if let kpl_emit::Arg::SharedInit { n, .. } = a { 4 * u64::from(*n) } else { 0 }).sum()
}

/// Why the OpenCL device cannot launch this kernel as the launch says, if it cannot
/// (a limit of 0 is one the device did not give).
fn beyond_opencl_limits(l: &Limits, e: &Emitted, launch: Launch) -> Option<String> {
    let t = launch.threads.map(u64::from);
    let group: u64 = t.iter().product();
    if l.max_group > 0 && group > l.max_group {
        return Some(format!("the OpenCL device allows at most {} work-items per group; the launch has {group}", l.max_group));
    }
    if let Some(d) = (0..3).find(|&d| l.max_items[d] > 0 && t[d] > l.max_items[d]) {
        return Some(format!("the OpenCL device allows at most {} work-items along dimension {d}; the launch has {}", l.max_items[d], t[d]));
    }
    let bytes = shared_bytes(e);
    (l.local_bytes > 0 && bytes > l.local_bytes).then(|| format!("the local arrays take {bytes} bytes; the OpenCL device has {} of local memory", l.local_bytes))
}

/// Whether `nvcc` and an NVIDIA GPU are here; the GPU's name when they are.
pub fn cuda_gpu() -> Option<String> {
    let ok = |cmd: &str, arg: &str| Command::new(cmd).arg(arg).output().ok().filter(|o| o.status.success());
    ok("nvcc", "--version")?;
    let smi = ok("nvidia-smi", "-L")?;
    let text = String::from_utf8_lossy(&smi.stdout);
    let first = text.lines().next().unwrap_or("").trim();
    // `GPU 0: NVIDIA H100 80GB HBM3 (UUID: ...)`: the name alone.
    let name = first.split_once(": ").map_or(first, |(_, n)| n);
    Some(name.split(" (UUID").next().unwrap_or(name).to_string())
}

/// CUDA: the emitted program (kernel and harness) in a directory of its own, built with
/// `nvcc` whenever it changes, run once per input set.
pub struct CudaDevice {
    dir: PathBuf,
    compiled: Option<String>,
}

impl CudaDevice {
    /// `kernel` names the directory (with the process id, so that runs at once do not meet).
    pub fn new(kernel: &str) -> Self {
        let tag: String = kernel.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        CudaDevice { dir: std::env::temp_dir().join(format!("kpl-cuda-{}-{tag}", std::process::id())), compiled: None }
    }
}

impl Device for CudaDevice {
    fn target(&self) -> Target {
        Target::Cuda
    }

    fn label(&self) -> &'static str {
        "on CUDA: "
    }

    fn run(&mut self, e: &Emitted, launch: Launch, inputs: &Inputs, sizes: &BTreeMap<String, u32>) -> Result<Vec<ArgValue>, Failure> {
        if let Some(why) = beyond_cuda_limits(e, launch) {
            return Err(Failure::Skipped(why));
        }
        let io = |what: &str, err: std::io::Error| Failure::Skipped(format!("cannot {what} in {}: {err}", self.dir.display()));
        std::fs::create_dir_all(&self.dir).map_err(|err| io("create a directory", err))?;
        let program = harness::cuda_program(e, launch, &|n| sizes.get(n).copied().unwrap_or(1));
        std::fs::write(self.dir.join("in.txt"), inputs_text(e, launch, inputs, sizes)).map_err(|err| io("write in.txt", err))?;
        // nvcc is slow: the program is compiled again only when it changes (the sizes of
        // unsized arrays, which each input set chooses, are part of it).
        if self.compiled.as_ref() != Some(&program) {
            std::fs::write(self.dir.join("kernel.cu"), &program).map_err(|err| io("write kernel.cu", err))?;
            let built = Command::new("nvcc")
                .args(["--fmad=false", "-w", "-o"])
                .arg(self.dir.join("kernel"))
                .arg(self.dir.join("kernel.cu"))
                .output()
                .map_err(|err| io("run nvcc", err))?;
            if !built.status.success() {
                return Err(Failure::Differs(format!("nvcc rejected the emitted program: {}", String::from_utf8_lossy(&built.stderr).trim_end())));
            }
            self.compiled = Some(program);
        }
        let ran = Command::new(self.dir.join("kernel"))
            .arg(self.dir.join("in.txt"))
            .arg(self.dir.join("out.txt"))
            .output()
            .map_err(|err| io("run the built program", err))?;
        if !ran.status.success() {
            return Err(Failure::Differs(format!("the CUDA run failed: {}", String::from_utf8_lossy(&ran.stderr).trim_end())));
        }
        let out = std::fs::read_to_string(self.dir.join("out.txt")).map_err(|err| io("read out.txt", err))?;
        let mut args = arguments(e, launch, inputs, sizes);
        read_outputs(e, &out, &mut args);
        Ok(args)
    }
}

/// Static shared memory a CUDA block may declare without opting in to more (bytes).
const CUDA_STATIC_SHARED: u64 = 48 * 1024;

/// Why CUDA cannot launch this kernel as the launch says, if it cannot: more threads per
/// block or blocks per grid dimension than every CUDA device allows, or more static shared
/// memory. (GPUVerify's tests often launch blocks of 2048 threads, which verify fine.)
fn beyond_cuda_limits(e: &Emitted, launch: Launch) -> Option<String> {
    let [tx, ty, tz] = launch.threads.map(u64::from);
    if tx * ty * tz > 1024 || tx > 1024 || ty > 1024 || tz > 64 {
        return Some(format!("CUDA allows at most 1024 threads per block (64 along z); the launch has {tx}x{ty}x{tz}"));
    }
    let [_, gy, gz] = launch.groups;
    if gy > 65535 || gz > 65535 {
        return Some(format!("CUDA allows at most 65535 blocks along y and z; the launch has {gy} and {gz}"));
    }
    let bytes = shared_bytes(e);
    (bytes > CUDA_STATIC_SHARED).then(|| format!("the shared arrays take {bytes} bytes; CUDA allows {CUDA_STATIC_SHARED} of static shared memory per block"))
}

impl Drop for CudaDevice {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// Fill the buffers of `args` from a harness's output file.
fn read_outputs(e: &Emitted, out: &str, args: &mut [ArgValue]) {
    let mut by_name: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for line in out.lines() {
        let mut it = line.split_whitespace();
        let (Some(kind), Some(name)) = (it.next(), it.next()) else { continue };
        let skip = if kind == "shared" { 2 } else { 1 };
        let vals: Vec<u32> = it.skip(skip).filter_map(|w| w.parse().ok()).collect();
        by_name.insert(name.to_string(), vals);
    }
    for (a, v) in e.args.iter().zip(args.iter_mut()) {
        let name = match a {
            kpl_emit::Arg::Global(n) | kpl_emit::Arg::SharedFinal { array: n, .. } => n,
            _ => continue,
        };
        if let (Some(vals), ArgValue::Buffer { data, .. }) = (by_name.get(name), v) {
            *data = vals.clone();
        }
    }
}
