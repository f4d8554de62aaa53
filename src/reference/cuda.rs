//! `--reference cuda`: a compute run description compiled by spvsass
//! itself into a cubin (`spvsass_backend::cubin`) and run on the machine's
//! NVIDIA GPU through the CUDA driver API, so the hardware executes our own
//! machine code (docs/CUBIN.md). The resources are bound the way the
//! simulator's driver binds them (docs/ABI.md): every buffer in device
//! memory, each set's descriptors in device memory, the root table passed
//! as the kernel's one parameter block. Storage buffers marked `read_back`
//! are read back into the same capture format the Vulkan runner writes, so
//! `spvsass compare` checks the simulator against our code on the GPU.
//!
//! libcuda is opened at run time (cudarc's `dynamic-loading`): a machine
//! without NVIDIA's driver gets [`ReferenceError::NoCuda`].

use super::description::{Pipeline, RunDescription, resolve_data};
use super::error::ReferenceError;
use super::result::{BufferResult, Capture, DeviceInfo, FORMAT, RunResult, Statistics};
use crate::backend::abi::{self, RootTable};
use crate::backend::descriptor_set::{Descriptor, DescriptorSets};
use crate::backend::target::Arch;
use cudarc::driver::{result as cu, sys};
use std::ffi::{CString, c_void};
use std::path::Path;

#[path = "cuda_images.rs"]
mod images;

fn call<T>(what: &'static str, r: Result<T, cu::DriverError>) -> Result<T, ReferenceError> {
    r.map_err(|e| ReferenceError::Cuda {
        call: what,
        error: format!("{e:?}"),
    })
}

/// Device memory that is freed when dropped.
struct DeviceBuffer {
    ptr: sys::CUdeviceptr,
    len: usize,
}

impl DeviceBuffer {
    fn with(bytes: &[u8]) -> Result<DeviceBuffer, ReferenceError> {
        // Zero-sized allocations are refused by CUDA: keep one word.
        let len = bytes.len().max(4);
        // SAFETY: a plain allocation in the current context.
        let ptr = call("cuMemAlloc", unsafe { cu::malloc_sync(len) })?;
        let buffer = DeviceBuffer { ptr, len };
        let mut padded = bytes.to_vec();
        padded.resize(len, 0);
        // SAFETY: `ptr` holds `len` bytes, `padded` is `len` bytes.
        call("cuMemcpyHtoD", unsafe {
            cu::memcpy_htod_sync(buffer.ptr, &padded)
        })?;
        Ok(buffer)
    }

    fn read(&self) -> Result<Vec<u8>, ReferenceError> {
        let mut out = vec![0u8; self.len];
        // SAFETY: `ptr` holds `len` bytes.
        call("cuMemcpyDtoH", unsafe {
            cu::memcpy_dtoh_sync(&mut out, self.ptr)
        })?;
        Ok(out)
    }
}

impl Drop for DeviceBuffer {
    fn drop(&mut self) {
        // SAFETY: allocated by cuMemAlloc in the still-current context.
        let _ = unsafe { cu::free_sync(self.ptr) };
    }
}

/// The architecture spvsass compiles for a device of compute capability
/// `major.minor`: a cubin runs only on its own major version.
fn arch_of(major: i32, minor: i32) -> Option<Arch> {
    Arch::from_sm(u32::try_from(major * 10 + minor).ok()?)
}

/// Loads the run description at `path` and runs it (see [`super::run_file`]).
pub fn run_file(path: &Path) -> Result<Capture, ReferenceError> {
    let desc = RunDescription::load(path)?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    run(&desc, &name, path.parent().unwrap_or(Path::new(".")))
}

/// Runs the compute description `desc` on the first CUDA device.
pub fn run(desc: &RunDescription, name: &str, base: &Path) -> Result<Capture, ReferenceError> {
    let invalid = |problem| ReferenceError::InvalidDescription {
        path: base.join(format!("{name}.json")),
        problem,
    };
    let shader = match desc.pipeline().map_err(invalid)? {
        Pipeline::Compute(shader) => shader,
        Pipeline::Mesh { .. } => return Err(ReferenceError::CudaMesh),
    };
    // Everything that needs no GPU first: the buffers' bytes.
    let mut contents = Vec::new();
    for b in &desc.buffers {
        let what = format!("set {} binding {}", b.set, b.binding);
        contents.push(resolve_data(&b.contents, base, &what, b.kind.limit())?);
    }
    let push = resolve_data(
        &desc.push_constants,
        base,
        "push constants",
        u64::from(abi::PUSH_CONSTANT_BYTES),
    )?;
    // Images and samplers: refused here if CUDA cannot express them.
    let images = images::plan(&desc.images, &desc.samplers, base)?;
    let spirv_path = base.join(&shader.spirv);
    let bytes = std::fs::read(&spirv_path).map_err(|source| ReferenceError::ReadFile {
        path: spirv_path.clone(),
        source,
    })?;

    // SAFETY: only asks the loader whether libcuda can be opened.
    if !unsafe { sys::is_culib_present() } {
        return Err(ReferenceError::NoCuda);
    }
    call("cuInit", cu::init())?;
    let dev = call("cuDeviceGet", cu::device::get(0))?;
    let attr = |a| {
        // SAFETY: `dev` is a valid device ordinal's handle.
        call("cuDeviceGetAttribute", unsafe {
            cu::device::get_attribute(dev, a)
        })
    };
    let major = attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?;
    let minor = attr(sys::CUdevice_attribute::CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?;
    let arch = arch_of(major, minor).ok_or(ReferenceError::CudaArch { major, minor })?;
    let device_name = call("cuDeviceGetName", cu::device::get_name(dev))?;

    // A spvsass binary (an ISA-level program) is loaded as it is; SPIR-V
    // is compiled for the device (docs/RUNS.md).
    let binary = if bytes.starts_with(&crate::backend::binary::MAGIC) {
        Some(
            crate::backend::binary::Binary::from_bytes(&bytes).map_err(|e| {
                ReferenceError::CudaCompile {
                    path: spirv_path.clone(),
                    error: e.to_string(),
                }
            })?,
        )
    } else {
        None
    };
    let words = match binary {
        Some(_) => Vec::new(),
        None => {
            crate::frontend::words_from_bytes(&bytes).map_err(|e| ReferenceError::CudaCompile {
                path: spirv_path.clone(),
                error: e.to_string(),
            })?
        }
    };
    let options = crate::Options {
        arch: Some(arch),
        entry: Some(shader.entry.clone()),
        for_cuda: true,
        ..crate::Options::default()
    };
    let binary = match binary {
        Some(b) if b.arch != arch => {
            return Err(ReferenceError::CudaCompile {
                path: spirv_path.clone(),
                error: format!("a binary for {}, and the device runs {arch}", b.arch),
            });
        }
        Some(b) => b,
        None => {
            crate::compile(&words, &options)
                .map_err(|e| ReferenceError::CudaCompile {
                    path: spirv_path.clone(),
                    error: e.to_string(),
                })?
                .binary
        }
    };
    // SPVSASS_CUDA_CTRL=conservative: the diagnosis aid of
    // `CubinOptions::conservative_ctrl` (docs/CUBIN.md).
    let options = crate::backend::cubin::CubinOptions {
        conservative_ctrl: std::env::var("SPVSASS_CUDA_CTRL").as_deref() == Ok("conservative"),
    };
    let cubin = crate::backend::cubin::write_with(&binary, options).map_err(|e| {
        ReferenceError::CudaCompile {
            path: spirv_path.clone(),
            error: e.to_string(),
        }
    })?;

    // SAFETY: `dev` is valid; the primary context is released below.
    let ctx = call("cuDevicePrimaryCtxRetain", unsafe {
        cu::primary_ctx::retain(dev)
    })?;
    // SAFETY: `ctx` was just retained.
    call("cuCtxSetCurrent", unsafe { cu::ctx::set_current(ctx) })?;
    let outcome = launch(desc, &contents, &push, images, &binary, &cubin);
    // SAFETY: retained above; every allocation was freed in `launch`.
    let _ = unsafe { cu::primary_ctx::release(dev) };
    let buffers = outcome?;

    let mut driver = 0i32;
    // SAFETY: writes one int.
    let _ = unsafe { sys::cuDriverGetVersion(&mut driver) };
    let info = DeviceInfo {
        device_name,
        device_type: "cuda".into(),
        vendor_id: 0x10de,
        device_id: 0,
        api_version: format!("CUDA {}.{}", driver / 1000, driver % 1000 / 10),
        driver_name: "CUDA driver API".into(),
        driver_info: format!("compute capability {major}.{minor}, spvsass {arch} cubin"),
        driver_version: format!("{driver}"),
        driver_version_raw: u32::try_from(driver).unwrap_or(0),
        conformance_version: String::new(),
    };
    Ok(Capture {
        result: RunResult {
            format: FORMAT,
            run: name.to_owned(),
            command: None,
            device: info,
            statistics: Statistics::default(),
            buffers,
            image: None,
        },
        pixels: Vec::new(),
    })
}

/// Binds, launches and reads back; every device allocation is freed when
/// this returns.
fn launch(
    desc: &RunDescription,
    contents: &[Vec<u8>],
    push: &[u8],
    images: images::Plan,
    binary: &crate::backend::binary::Binary,
    cubin: &[u8],
) -> Result<Vec<BufferResult>, ReferenceError> {
    let mut root = RootTable::default();
    root.set_num_workgroups(desc.groups);
    root.set_push_constants(push)
        .map_err(|e| ReferenceError::CudaBind(e.to_string()))?;
    let mut buffers = Vec::new();
    let mut sets = DescriptorSets::default();
    for (d, bytes) in desc.buffers.iter().zip(contents) {
        let buffer = DeviceBuffer::with(bytes)?;
        let address = buffer.ptr + d.offset;
        let size = match d.range {
            Some(r) => r,
            None => (bytes.len() as u64).saturating_sub(d.offset),
        };
        if d.set == 0 && d.element == 0 && d.binding < abi::MAX_BINDINGS {
            root.set_buffer(d.binding, address, size)
                .map_err(|e| ReferenceError::CudaBind(e.to_string()))?;
        }
        let size32 = u32::try_from(size).map_err(|_| {
            ReferenceError::CudaBind(format!("set {} binding {}: {size} bytes", d.set, d.binding))
        })?;
        sets.place(
            d.set,
            d.binding,
            d.element,
            Descriptor::Buffer {
                address,
                size: size32,
            },
        );
        buffers.push(buffer);
    }
    let images = images.bind()?;
    for (slot, handle) in &images.handles {
        sets.place(
            slot.set,
            slot.binding,
            slot.element,
            Descriptor::Handle(*handle),
        );
    }
    let used: Vec<(u32, u32)> = binary
        .resources
        .iter()
        .map(|r| (r.set, r.binding))
        .collect();
    let mut set_buffers = Vec::new();
    for (set, bytes) in sets.memories(&used) {
        let memory = DeviceBuffer::with(&bytes)?;
        root.set_set_address(set, memory.ptr)
            .map_err(|e| ReferenceError::CudaBind(e.to_string()))?;
        set_buffers.push(memory);
    }

    let mut image = cubin.to_vec();
    image.push(0);
    // SAFETY: `image` is a complete ELF image that outlives the call.
    let module = call("cuModuleLoadData", unsafe {
        cu::module::load_data(image.as_ptr().cast())
    })?;
    let kernel = CString::new(crate::backend::cubin::KERNEL_NAME).expect("no NUL in the name");
    let result = (|| {
        // SAFETY: `module` is loaded; the name is NUL-terminated.
        let function = call("cuModuleGetFunction", unsafe {
            cu::module::get_function(module, kernel)
        })?;
        if std::env::var_os("SPVSASS_CUDA_ATTRIBUTES").is_some() {
            log_attributes(function);
        }
        let mut params = root.bytes().to_vec();
        let mut args = [params.as_mut_ptr().cast::<c_void>()];
        let [x, y, z] = desc.groups;
        let [bx, by, bz] = binary.workgroup_size;
        // SAFETY: the kernel takes one parameter block of the root table's
        // size (its cubin says so), which `args[0]` points to.
        call("cuLaunchKernel", unsafe {
            cu::launch_kernel(
                function,
                (x, y, z),
                (bx, by, bz),
                0,
                cu::stream::null(),
                &mut args,
            )
        })?;
        call("cuCtxSynchronize", cu::ctx::synchronize())?;
        let mut out = Vec::new();
        for ((d, buffer), initial) in desc.buffers.iter().zip(&buffers).zip(contents) {
            if !d.read_back {
                continue;
            }
            let mut bytes = buffer.read()?;
            bytes.truncate(initial.len());
            out.push(BufferResult {
                set: d.set,
                binding: d.binding,
                element: d.element,
                words: bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
            });
        }
        out.extend(images.read_back()?);
        Ok(out)
    })();
    // SAFETY: loaded above, no launch in flight after the synchronize.
    let _ = unsafe { cu::module::unload(module) };
    result
}

/// Prints what the driver made of the cubin's attributes (registers, local,
/// shared and constant bytes) on standard error: `SPVSASS_CUDA_ATTRIBUTES=1`
/// (docs/CUBIN.md).
fn log_attributes(function: sys::CUfunction) {
    use sys::CUfunction_attribute_enum as A;
    for (name, attribute) in [
        ("registers", A::CU_FUNC_ATTRIBUTE_NUM_REGS),
        ("local bytes", A::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES),
        ("shared bytes", A::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
        ("constant bytes", A::CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES),
        ("max threads", A::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK),
    ] {
        // SAFETY: `function` is a loaded kernel.
        match unsafe { cu::function::get_function_attribute(function, attribute) } {
            Ok(v) => eprintln!("cuda attribute {name}: {v}"),
            Err(e) => eprintln!("cuda attribute {name}: {e}"),
        }
    }
}
