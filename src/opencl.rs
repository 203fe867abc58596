//! Running kernels on a real OpenCL implementation, loaded at run time (`libOpenCL.so.1`
//! through libloading), so kpl builds and runs where there is none.

use libloading::{Library, Symbol};
use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

type Handle = *mut c_void;
type Int = i32;

const CL_DEVICE_TYPE_ALL: u64 = 0xFFFF_FFFF;
const CL_MEM_READ_WRITE: u64 = 1;
const CL_MEM_COPY_HOST_PTR: u64 = 1 << 5;
const CL_PROGRAM_BUILD_LOG: u32 = 0x1183;
const CL_DEVICE_MAX_WORK_GROUP_SIZE: u32 = 0x1004;
const CL_DEVICE_MAX_WORK_ITEM_SIZES: u32 = 0x1005;
const CL_DEVICE_LOCAL_MEM_SIZE: u32 = 0x1023;
const CL_KERNEL_WORK_GROUP_SIZE: u32 = 0x11B0;
const CL_DEVICE_NAME: u32 = 0x102B;
const CL_PLATFORM_NAME: u32 = 0x0902;

/// An OpenCL device, ready to build and run kernels.
pub struct OpenCl {
    lib: Library,
    device: Handle,
    ctx: Handle,
    queue: Handle,
    /// `platform: device`, for reports.
    pub name: String,
    /// What the device allows a launch.
    pub limits: Limits,
}

/// A device's launch limits (0 where the device did not say).
#[derive(Clone, Copy, Debug, Default)]
pub struct Limits {
    pub max_group: u64,
    pub max_items: [u64; 3],
    pub local_bytes: u64,
}

/// A kernel argument's value for one launch.
pub enum ArgValue {
    Word(u32),
    /// A buffer: its initial contents; read back after the launch when `read`.
    Buffer { data: Vec<u32>, read: bool },
    /// Local memory of this many words.
    Local(u32),
}

fn check(what: &str, err: Int) -> Result<(), String> {
    if err == 0 {
        Ok(())
    } else {
        Err(format!("{what} failed with OpenCL error {err}"))
    }
}

impl OpenCl {
    /// Load the OpenCL library and take the first device of the first platform.
    pub fn load() -> Result<OpenCl, String> {
        // SAFETY: loading the system's OpenCL ICD loader; its initialisers are the vendor's.
        let lib = unsafe { Library::new("libOpenCL.so.1").or_else(|_| Library::new("libOpenCL.so")) }
            .map_err(|_| "no OpenCL library (libOpenCL.so.1) on this machine".to_string())?;
        let mut cl = OpenCl { lib, device: null_mut(), ctx: null_mut(), queue: null_mut(), name: String::new(), limits: Limits::default() };
        // SAFETY: each call follows the OpenCL 1.2 C API's signature and contract.
        unsafe {
            let get_platforms: Symbol<unsafe extern "C" fn(u32, *mut Handle, *mut u32) -> Int> = cl.sym(b"clGetPlatformIDs\0")?;
            let mut platform: Handle = null_mut();
            let mut n = 0u32;
            if get_platforms(1, &mut platform, &mut n) != 0 || n == 0 {
                return Err("no OpenCL platform found".into());
            }
            let get_devices: Symbol<unsafe extern "C" fn(Handle, u64, u32, *mut Handle, *mut u32) -> Int> = cl.sym(b"clGetDeviceIDs\0")?;
            let mut device: Handle = null_mut();
            if get_devices(platform, CL_DEVICE_TYPE_ALL, 1, &mut device, &mut n) != 0 || n == 0 {
                return Err("the OpenCL platform has no device".into());
            }
            let pname = cl.info_string(b"clGetPlatformInfo\0", platform, CL_PLATFORM_NAME)?;
            let dname = cl.info_string(b"clGetDeviceInfo\0", device, CL_DEVICE_NAME)?;
            cl.name = format!("{pname}: {dname}");
            let mut items = [0usize; 3];
            cl.device_info(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, items.as_mut_ptr() as *mut c_void, std::mem::size_of_val(&items))?;
            let mut group = 0usize;
            cl.device_info(device, CL_DEVICE_MAX_WORK_GROUP_SIZE, &mut group as *mut usize as *mut c_void, std::mem::size_of::<usize>())?;
            let mut local = 0u64;
            cl.device_info(device, CL_DEVICE_LOCAL_MEM_SIZE, &mut local as *mut u64 as *mut c_void, std::mem::size_of::<u64>())?;
            cl.limits = Limits { max_group: group as u64, max_items: items.map(|i| i as u64), local_bytes: local };
            let create_ctx: Symbol<unsafe extern "C" fn(*const isize, u32, *const Handle, *const c_void, *mut c_void, *mut Int) -> Handle> =
                cl.sym(b"clCreateContext\0")?;
            let mut err = 0;
            let ctx = create_ctx(null(), 1, &device, null(), null_mut(), &mut err);
            check("clCreateContext", err)?;
            let create_queue: Symbol<unsafe extern "C" fn(Handle, Handle, u64, *mut Int) -> Handle> = cl.sym(b"clCreateCommandQueue\0")?;
            let queue = create_queue(ctx, device, 0, &mut err);
            check("clCreateCommandQueue", err)?;
            cl.device = device;
            cl.ctx = ctx;
            cl.queue = queue;
        }
        Ok(cl)
    }

    /// # Safety
    /// The symbol's type must be the C function's.
    unsafe fn sym<T>(&self, name: &[u8]) -> Result<Symbol<'_, T>, String> {
        self.lib.get(name).map_err(|_| format!("the OpenCL library lacks {}", String::from_utf8_lossy(&name[..name.len() - 1])))
    }

    unsafe fn info_string(&self, f: &[u8], obj: Handle, param: u32) -> Result<String, String> {
        let info: Symbol<unsafe extern "C" fn(Handle, u32, usize, *mut c_void, *mut usize) -> Int> = self.sym(f)?;
        let mut buf = vec![0u8; 1024];
        let mut len = 0usize;
        info(obj, param, buf.len(), buf.as_mut_ptr() as *mut c_void, &mut len);
        buf.truncate(len.saturating_sub(1).min(1024));
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }

    /// A fixed-size device property (left as it was when the device does not give it).
    unsafe fn device_info(&self, device: Handle, param: u32, out: *mut c_void, size: usize) -> Result<(), String> {
        let info: Symbol<unsafe extern "C" fn(Handle, u32, usize, *mut c_void, *mut usize) -> Int> = self.sym(b"clGetDeviceInfo\0")?;
        info(device, param, size, out, null_mut());
        Ok(())
    }

    /// The most work-items a group of this built kernel may have on the device (`None`
    /// when the device does not say).
    pub fn kernel_max_group(&self, kernel: Handle) -> Option<u64> {
        // SAFETY: clGetKernelWorkGroupInfo's signature; the output is one size_t.
        unsafe {
            let info: Symbol<unsafe extern "C" fn(Handle, Handle, u32, usize, *mut c_void, *mut usize) -> Int> =
                self.sym(b"clGetKernelWorkGroupInfo\0").ok()?;
            let mut n = 0usize;
            let err = info(kernel, self.device, CL_KERNEL_WORK_GROUP_SIZE, std::mem::size_of::<usize>(), &mut n as *mut usize as *mut c_void, null_mut());
            (err == 0 && n > 0).then_some(n as u64)
        }
    }

    /// The compiler's messages for a program.
    unsafe fn build_log(&self, prog: Handle) -> Result<String, String> {
        let info: Symbol<unsafe extern "C" fn(Handle, Handle, u32, usize, *mut c_void, *mut usize) -> Int> = self.sym(b"clGetProgramBuildInfo\0")?;
        let mut buf = vec![0u8; 1 << 16];
        let mut len = 0usize;
        info(prog, self.device, CL_PROGRAM_BUILD_LOG, buf.len(), buf.as_mut_ptr() as *mut c_void, &mut len);
        buf.truncate(len.min(1 << 16));
        Ok(String::from_utf8_lossy(&buf).into_owned())
    }

    /// Build a kernel; gives its handle or the build log.
    pub fn build(&self, source: &str, kernel: &str) -> Result<Handle, String> {
        // SAFETY: OpenCL 1.2 API calls with valid, live handles and NUL-terminated strings.
        unsafe {
            let create: Symbol<unsafe extern "C" fn(Handle, u32, *const *const i8, *const usize, *mut Int) -> Handle> =
                self.sym(b"clCreateProgramWithSource\0")?;
            let src = CString::new(source).map_err(|_| "the kernel source holds a NUL byte")?;
            let ptr = src.as_ptr();
            let mut err = 0;
            let prog = create(self.ctx, 1, &ptr, null(), &mut err);
            check("clCreateProgramWithSource", err)?;
            let build: Symbol<unsafe extern "C" fn(Handle, u32, *const Handle, *const i8, *const c_void, *mut c_void) -> Int> =
                self.sym(b"clBuildProgram\0")?;
            let opts = CString::new("-cl-fp32-correctly-rounded-divide-sqrt -w").unwrap_or_default();
            if build(prog, 1, &self.device, opts.as_ptr(), null(), null_mut()) != 0 {
                return Err(format!("the OpenCL compiler rejected the kernel:\n{}", self.build_log(prog)?));
            }
            if std::env::var_os("KPL_DEBUG").is_some() {
                eprintln!("build log: {}", self.build_log(prog)?);
            }
            let mk: Symbol<unsafe extern "C" fn(Handle, *const i8, *mut Int) -> Handle> = self.sym(b"clCreateKernel\0")?;
            let name = CString::new(kernel).map_err(|_| "bad kernel name")?;
            let k = mk(prog, name.as_ptr(), &mut err);
            check("clCreateKernel", err)?;
            Ok(k)
        }
    }

    /// Launch a built kernel; gives the buffers read back (in argument order).
    pub fn launch(&self, kernel: Handle, args: &mut [ArgValue], groups: [u32; 3], threads: [u32; 3]) -> Result<(), String> {
        // SAFETY: OpenCL 1.2 API calls; buffers outlive the calls that use them and are
        // released before returning.
        unsafe {
            let create_buf: Symbol<unsafe extern "C" fn(Handle, u64, usize, *mut c_void, *mut Int) -> Handle> = self.sym(b"clCreateBuffer\0")?;
            let set_arg: Symbol<unsafe extern "C" fn(Handle, u32, usize, *const c_void) -> Int> = self.sym(b"clSetKernelArg\0")?;
            let release: Symbol<unsafe extern "C" fn(Handle) -> Int> = self.sym(b"clReleaseMemObject\0")?;
            let mut mems: Vec<Option<Handle>> = Vec::new();
            let mut result = Ok(());
            for (i, a) in args.iter_mut().enumerate() {
                let r = match a {
                    ArgValue::Word(w) => {
                        mems.push(None);
                        set_arg(kernel, i as u32, 4, w as *const u32 as *const c_void)
                    }
                    ArgValue::Local(n) => {
                        mems.push(None);
                        set_arg(kernel, i as u32, (*n as usize).max(1) * 4, null())
                    }
                    ArgValue::Buffer { data, .. } => {
                        if data.is_empty() {
                            data.push(0);
                        }
                        let mut err = 0;
                        let m = create_buf(
                            self.ctx,
                            CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                            data.len() * 4,
                            data.as_mut_ptr() as *mut c_void,
                            &mut err,
                        );
                        mems.push((err == 0).then_some(m));
                        if err != 0 {
                            err
                        } else {
                            set_arg(kernel, i as u32, std::mem::size_of::<Handle>(), &m as *const Handle as *const c_void)
                        }
                    }
                };
                if r != 0 {
                    result = Err(format!("setting argument {i} failed with OpenCL error {r}"));
                    break;
                }
            }
            if result.is_ok() {
                result = self.enqueue(kernel, groups, threads);
            }
            if result.is_ok() {
                let read: Symbol<unsafe extern "C" fn(Handle, Handle, u32, usize, usize, *mut c_void, u32, *const c_void, *mut c_void) -> Int> =
                    self.sym(b"clEnqueueReadBuffer\0")?;
                for (a, m) in args.iter_mut().zip(&mems) {
                    if let (ArgValue::Buffer { data, read: true }, Some(m)) = (a, m) {
                        let r = read(self.queue, *m, 1, 0, data.len() * 4, data.as_mut_ptr() as *mut c_void, 0, null(), null_mut());
                        if r != 0 {
                            result = Err(format!("reading a buffer back failed with OpenCL error {r}"));
                        }
                    }
                }
            }
            for m in mems.into_iter().flatten() {
                release(m);
            }
            result
        }
    }

    unsafe fn enqueue(&self, kernel: Handle, groups: [u32; 3], threads: [u32; 3]) -> Result<(), String> {
        let nd: Symbol<unsafe extern "C" fn(Handle, Handle, u32, *const usize, *const usize, *const usize, u32, *const c_void, *mut c_void) -> Int> =
            self.sym(b"clEnqueueNDRangeKernel\0")?;
        let global: [usize; 3] = [0, 1, 2].map(|d| groups[d] as usize * threads[d] as usize);
        let local: [usize; 3] = threads.map(|t| t as usize);
        check("clEnqueueNDRangeKernel", nd(self.queue, kernel, 3, null(), global.as_ptr(), local.as_ptr(), 0, null(), null_mut()))?;
        let finish: Symbol<unsafe extern "C" fn(Handle) -> Int> = self.sym(b"clFinish\0")?;
        check("clFinish", finish(self.queue))
    }

    pub fn release_kernel(&self, k: Handle) {
        // SAFETY: `k` came from `build` and is released once.
        unsafe {
            if let Ok(f) = self.sym::<unsafe extern "C" fn(Handle) -> Int>(b"clReleaseKernel\0") {
                f(k);
            }
        }
    }
}

impl Drop for OpenCl {
    fn drop(&mut self) {
        // SAFETY: the queue and context were created by `load` and are released once.
        unsafe {
            if let Ok(f) = self.sym::<unsafe extern "C" fn(Handle) -> Int>(b"clReleaseCommandQueue\0") {
                f(self.queue);
            }
            if let Ok(f) = self.sym::<unsafe extern "C" fn(Handle) -> Int>(b"clReleaseContext\0") {
                f(self.ctx);
            }
        }
    }
}
