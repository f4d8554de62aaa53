//! Loader, instance, physical-device choice and the logical device with the
//! features a run needs; also the list of objects to destroy, so that every
//! exit path (errors included) releases what it made.

use super::error::{ReferenceError, vk_err};
use super::result::DeviceInfo;
use ash::vk;
use std::ffi::CStr;

/// What the run needs from the device.
#[derive(Clone, Copy, Debug, Default)]
pub struct Needs {
    pub mesh: bool,
    pub task: bool,
    pub multiview: bool,
    /// The shaders declare AtomicFloat32AddEXT (VK_EXT_shader_atomic_float).
    pub float_atomic_add: bool,
    /// The shaders declare AtomicFloat32MinMaxEXT
    /// (VK_EXT_shader_atomic_float2).
    pub float_atomic_min_max: bool,
}

/// Optional features found and enabled: they decide which statistics can
/// be read, and whether multisampled images can be filled and stored to.
#[derive(Clone, Copy, Debug, Default)]
pub struct Enabled {
    pub pipeline_statistics: bool,
    pub mesh_queries: bool,
    /// sampleRateShading: the multisampled-image fill (`ms_fill.rs`).
    pub sample_rate_shading: bool,
    /// shaderStorageImageMultisample.
    pub storage_image_multisample: bool,
}

/// An object made on the device, destroyed when the [`Gpu`] is dropped.
pub enum Owned {
    Buffer(vk::Buffer),
    Memory(vk::DeviceMemory),
    Image(vk::Image),
    ImageView(vk::ImageView),
    ShaderModule(vk::ShaderModule),
    Pipeline(vk::Pipeline),
    PipelineLayout(vk::PipelineLayout),
    SetLayout(vk::DescriptorSetLayout),
    DescriptorPool(vk::DescriptorPool),
    RenderPass(vk::RenderPass),
    Framebuffer(vk::Framebuffer),
    CommandPool(vk::CommandPool),
    QueryPool(vk::QueryPool),
    Fence(vk::Fence),
    Sampler(vk::Sampler),
    BufferView(vk::BufferView),
}

macro_rules! owned_from {
    ($($variant:ident($t:ty)),*) => {$(
        impl From<$t> for Owned {
            fn from(x: $t) -> Owned {
                Owned::$variant(x)
            }
        }
    )*};
}
owned_from!(
    Sampler(vk::Sampler),
    BufferView(vk::BufferView),
    Buffer(vk::Buffer),
    Memory(vk::DeviceMemory),
    Image(vk::Image),
    ImageView(vk::ImageView),
    ShaderModule(vk::ShaderModule),
    Pipeline(vk::Pipeline),
    PipelineLayout(vk::PipelineLayout),
    SetLayout(vk::DescriptorSetLayout),
    DescriptorPool(vk::DescriptorPool),
    RenderPass(vk::RenderPass),
    Framebuffer(vk::Framebuffer),
    CommandPool(vk::CommandPool),
    QueryPool(vk::QueryPool),
    Fence(vk::Fence)
);

/// The Vulkan objects of one run.
pub struct Gpu {
    // Keeps libvulkan loaded while the instance lives.
    _entry: ash::Entry,
    pub instance: ash::Instance,
    pub physical: vk::PhysicalDevice,
    pub device: ash::Device,
    pub queue: vk::Queue,
    pub queue_family: u32,
    pub mesh: Option<ash::ext::mesh_shader::Device>,
    pub memory: vk::PhysicalDeviceMemoryProperties,
    pub limits: vk::PhysicalDeviceLimits,
    pub max_views: u32,
    pub info: DeviceInfo,
    pub enabled: Enabled,
    owned: Vec<Owned>,
}

impl Gpu {
    /// Loads libvulkan, picks the best device and creates a logical device
    /// with what `needs` asks for.
    pub fn new(needs: Needs) -> Result<Gpu, ReferenceError> {
        // SAFETY: loading the system's Vulkan loader runs its initialisers;
        // that is the documented way to use it.
        let entry = unsafe { ash::Entry::load()? };
        let app = vk::ApplicationInfo::default()
            .application_name(c"spvsass reference")
            .api_version(vk::API_VERSION_1_3);
        let create = vk::InstanceCreateInfo::default().application_info(&app);
        // SAFETY: the create info and what it points to outlive the call.
        let instance = unsafe { entry.create_instance(&create, None) }.map_err(|r| match r {
            vk::Result::ERROR_INCOMPATIBLE_DRIVER => {
                ReferenceError::NoDevice("no Vulkan driver (ICD) accepted the instance".into())
            }
            r => ReferenceError::Vulkan {
                call: "vkCreateInstance",
                result: r,
            },
        })?;
        // From here the instance must be destroyed on every error path.
        match Self::with_instance(&instance, needs) {
            Ok((physical, device, queue_family, info, enabled)) => {
                // SAFETY: valid handles; the queue family was created above.
                let queue = unsafe { device.get_device_queue(queue_family, 0) };
                let mesh = needs
                    .mesh
                    .then(|| ash::ext::mesh_shader::Device::new(&instance, &device));
                // SAFETY: a valid physical device.
                let (memory, props) = unsafe {
                    (
                        instance.get_physical_device_memory_properties(physical),
                        instance.get_physical_device_properties(physical),
                    )
                };
                let mut multiview = vk::PhysicalDeviceMultiviewProperties::default();
                let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut multiview);
                // SAFETY: a valid physical device and a well-formed chain.
                unsafe { instance.get_physical_device_properties2(physical, &mut props2) };
                let max_views = multiview.max_multiview_view_count;
                Ok(Gpu {
                    _entry: entry,
                    instance,
                    physical,
                    device,
                    queue,
                    queue_family,
                    mesh,
                    memory,
                    limits: props.limits,
                    max_views,
                    info,
                    enabled,
                    owned: Vec::new(),
                })
            }
            Err(e) => {
                // SAFETY: nothing else was made from this instance.
                unsafe { instance.destroy_instance(None) };
                Err(e)
            }
        }
    }

    #[allow(clippy::type_complexity)]
    fn with_instance(
        instance: &ash::Instance,
        needs: Needs,
    ) -> Result<(vk::PhysicalDevice, ash::Device, u32, DeviceInfo, Enabled), ReferenceError> {
        // SAFETY: a valid instance.
        let devices = unsafe { instance.enumerate_physical_devices() }
            .map_err(vk_err("vkEnumeratePhysicalDevices"))?;
        if devices.is_empty() {
            return Err(ReferenceError::NoDevice(
                "the loader found no physical device (is a driver installed?)".into(),
            ));
        }
        let mut candidates = Vec::new();
        let mut refused = Vec::new();
        for pd in devices {
            // SAFETY: pd comes from the instance.
            let props = unsafe { instance.get_physical_device_properties(pd) };
            let name = device_name(&props);
            if props.api_version < vk::API_VERSION_1_3 {
                refused.push(format!(
                    "{name}: Vulkan {} (1.3 needed for SPIR-V 1.6)",
                    version(props.api_version)
                ));
                continue;
            }
            let Some(family) = queue_family(instance, pd, needs.mesh) else {
                refused.push(format!("{name}: no compute/graphics queue"));
                continue;
            };
            candidates.push((preference(props.device_type), pd, family, props));
        }
        // Real GPUs first; the sort is stable, so the loader's order breaks ties.
        candidates.sort_by_key(|c| c.0);
        let Some(&(_, pd, family, props)) = candidates.first() else {
            return Err(ReferenceError::NoUsableDevice(refused.join("; ")));
        };
        let info = device_info(instance, pd, &props);
        let (device, enabled) = create_device(instance, pd, family, needs, &info.device_name)?;
        Ok((pd, device, family, info, enabled))
    }

    /// Registers an object for destruction with the device.
    pub fn own<T: Into<Owned> + Copy>(&mut self, x: T) -> T {
        self.owned.push(x.into());
        x
    }

    /// Finds a memory type among `bits` with the wanted properties.
    pub fn memory_type(
        &self,
        bits: u32,
        wanted: vk::MemoryPropertyFlags,
        what: &str,
    ) -> Result<u32, ReferenceError> {
        (0..self.memory.memory_type_count)
            .find(|&i| {
                bits & (1 << i) != 0
                    && self.memory.memory_types[i as usize]
                        .property_flags
                        .contains(wanted)
            })
            .ok_or_else(|| ReferenceError::NoMemoryType {
                what: what.to_owned(),
                bits,
                wanted,
            })
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        let d = &self.device;
        // SAFETY: every object was made on this device; waiting for idle
        // first means none is in use, and they go in reverse order of making.
        unsafe {
            let _ = d.device_wait_idle();
            for o in self.owned.drain(..).rev() {
                match o {
                    Owned::Buffer(x) => d.destroy_buffer(x, None),
                    Owned::Memory(x) => d.free_memory(x, None),
                    Owned::Image(x) => d.destroy_image(x, None),
                    Owned::ImageView(x) => d.destroy_image_view(x, None),
                    Owned::ShaderModule(x) => d.destroy_shader_module(x, None),
                    Owned::Pipeline(x) => d.destroy_pipeline(x, None),
                    Owned::PipelineLayout(x) => d.destroy_pipeline_layout(x, None),
                    Owned::SetLayout(x) => d.destroy_descriptor_set_layout(x, None),
                    Owned::DescriptorPool(x) => d.destroy_descriptor_pool(x, None),
                    Owned::RenderPass(x) => d.destroy_render_pass(x, None),
                    Owned::Framebuffer(x) => d.destroy_framebuffer(x, None),
                    Owned::CommandPool(x) => d.destroy_command_pool(x, None),
                    Owned::QueryPool(x) => d.destroy_query_pool(x, None),
                    Owned::Fence(x) => d.destroy_fence(x, None),
                    Owned::Sampler(x) => d.destroy_sampler(x, None),
                    Owned::BufferView(x) => d.destroy_buffer_view(x, None),
                }
            }
            d.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

fn preference(t: vk::PhysicalDeviceType) -> u8 {
    match t {
        vk::PhysicalDeviceType::DISCRETE_GPU => 0,
        vk::PhysicalDeviceType::INTEGRATED_GPU => 1,
        vk::PhysicalDeviceType::VIRTUAL_GPU => 2,
        vk::PhysicalDeviceType::CPU => 3,
        _ => 4,
    }
}

/// A queue family with compute, and graphics too for mesh runs.
fn queue_family(instance: &ash::Instance, pd: vk::PhysicalDevice, graphics: bool) -> Option<u32> {
    let mut want = vk::QueueFlags::COMPUTE;
    if graphics {
        want |= vk::QueueFlags::GRAPHICS;
    }
    // SAFETY: pd comes from the instance.
    let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
    families
        .iter()
        .position(|f| f.queue_flags.contains(want))
        .and_then(|i| u32::try_from(i).ok())
}

fn device_name(props: &vk::PhysicalDeviceProperties) -> String {
    props
        .device_name_as_c_str()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|_| "(unnamed device)".into())
}

/// `major.minor.patch` of a Vulkan-encoded version.
pub fn version(v: u32) -> String {
    format!(
        "{}.{}.{}",
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v)
    )
}

/// The driver version as its vendor encodes it: NVIDIA packs 10.8.8.6
/// bits; Mesa and most others use the Vulkan version encoding.
fn driver_version(vendor: u32, v: u32) -> String {
    if vendor == 0x10de {
        format!(
            "{}.{}.{}.{}",
            v >> 22,
            (v >> 14) & 0xff,
            (v >> 6) & 0xff,
            v & 0x3f
        )
    } else {
        version(v)
    }
}

fn c_text(s: Result<&CStr, std::ffi::FromBytesUntilNulError>) -> String {
    s.map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

fn device_info(
    instance: &ash::Instance,
    pd: vk::PhysicalDevice,
    props: &vk::PhysicalDeviceProperties,
) -> DeviceInfo {
    let mut driver = vk::PhysicalDeviceDriverProperties::default();
    {
        let mut props2 = vk::PhysicalDeviceProperties2::default().push_next(&mut driver);
        // SAFETY: a Vulkan 1.3 device (checked) knows the driver properties.
        unsafe { instance.get_physical_device_properties2(pd, &mut props2) };
    }
    let c = driver.conformance_version;
    DeviceInfo {
        device_name: device_name(props),
        device_type: format!("{:?}", props.device_type),
        vendor_id: props.vendor_id,
        device_id: props.device_id,
        api_version: version(props.api_version),
        driver_name: c_text(driver.driver_name_as_c_str()),
        driver_info: c_text(driver.driver_info_as_c_str()),
        driver_version: driver_version(props.vendor_id, props.driver_version),
        driver_version_raw: props.driver_version,
        conformance_version: format!("{}.{}.{}.{}", c.major, c.minor, c.subminor, c.patch),
    }
}

fn has_extension(instance: &ash::Instance, pd: vk::PhysicalDevice, name: &CStr) -> bool {
    // SAFETY: pd comes from the instance.
    unsafe { instance.enumerate_device_extension_properties(pd) }
        .map(|exts| {
            exts.iter()
                .any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == name))
        })
        .unwrap_or(false)
}

/// Creates the device. Required features missing are an error naming them;
/// optional ones (statistics queries, widths of arithmetic that shaders may
/// declare) are enabled when present. robustBufferAccess stays off so that
/// out-of-bounds accesses are not silently made safe.
fn create_device(
    instance: &ash::Instance,
    pd: vk::PhysicalDevice,
    family: u32,
    needs: Needs,
    name: &str,
) -> Result<(ash::Device, Enabled), ReferenceError> {
    let mesh_ext = has_extension(instance, pd, ash::ext::mesh_shader::NAME);
    if needs.mesh && !mesh_ext {
        return Err(ReferenceError::MeshShadersUnsupported {
            device: name.to_owned(),
        });
    }
    let mut have11 = vk::PhysicalDeviceVulkan11Features::default();
    let mut have12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut have13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut have_mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default();
    let fsr_ext = needs.mesh && has_extension(instance, pd, ash::khr::fragment_shading_rate::NAME);
    let mut have_fsr = vk::PhysicalDeviceFragmentShadingRateFeaturesKHR::default();
    // A module that declares a float-atomic capability is only valid on a
    // device with the extension and the feature enabled; without them a
    // driver may do anything (the H100 hung), so they are required.
    let float_add_ext =
        needs.float_atomic_add && has_extension(instance, pd, ash::ext::shader_atomic_float::NAME);
    let float_min_max_ext = needs.float_atomic_min_max
        && has_extension(instance, pd, ash::ext::shader_atomic_float2::NAME);
    let mut have_float = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default();
    let mut have_float2 = vk::PhysicalDeviceShaderAtomicFloat2FeaturesEXT::default();
    let have10 = {
        let mut f2 = vk::PhysicalDeviceFeatures2::default()
            .push_next(&mut have11)
            .push_next(&mut have12)
            .push_next(&mut have13);
        if mesh_ext {
            f2 = f2.push_next(&mut have_mesh);
        }
        if fsr_ext {
            f2 = f2.push_next(&mut have_fsr);
        }
        if float_add_ext {
            f2 = f2.push_next(&mut have_float);
        }
        if float_min_max_ext {
            f2 = f2.push_next(&mut have_float2);
        }
        // SAFETY: a well-formed chain of structs this device knows.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
        f2.features
    };
    let on = |b: vk::Bool32| b == vk::TRUE;

    let mut missing = Vec::new();
    let mut require = |have: vk::Bool32, wanted: bool, feature: &'static str| {
        if wanted && !on(have) {
            missing.push(feature);
        }
        wanted
    };
    let mut want_mesh = vk::PhysicalDeviceMeshShaderFeaturesEXT::default()
        .mesh_shader(require(have_mesh.mesh_shader, needs.mesh, "meshShader"))
        .task_shader(require(have_mesh.task_shader, needs.task, "taskShader"))
        .multiview_mesh_shader(require(
            have_mesh.multiview_mesh_shader,
            needs.multiview,
            "multiviewMeshShader",
        ))
        .mesh_shader_queries(needs.mesh && on(have_mesh.mesh_shader_queries));
    // glslang declares FragmentShadingRateKHR in mesh shaders that use the
    // per-primitive built-in block (gpu-reference.md, pitfalls); drivers
    // accept it, and enabling the features where they exist keeps the
    // validation layer quiet. No shading rate is ever set: rates stay 1x1.
    let primitive_rate = fsr_ext
        && on(have_fsr.primitive_fragment_shading_rate)
        && on(have_mesh.primitive_fragment_shading_rate_mesh_shader);
    want_mesh = want_mesh.primitive_fragment_shading_rate_mesh_shader(primitive_rate);
    // Support for primitive rates implies support for pipeline rates; with no
    // rate state in the pipeline, the pipeline rate is 1x1.
    let mut want_fsr = vk::PhysicalDeviceFragmentShadingRateFeaturesKHR::default()
        .pipeline_fragment_shading_rate(
            primitive_rate && on(have_fsr.pipeline_fragment_shading_rate),
        )
        .primitive_fragment_shading_rate(primitive_rate);
    let multiview = require(have11.multiview, needs.multiview, "multiview");
    // Buffer or shared memory: the capability does not say which, so each
    // present feature is enabled and at least one must be there.
    let float_add =
        have_float.shader_buffer_float32_atomic_add | have_float.shader_shared_float32_atomic_add;
    require(
        float_add,
        needs.float_atomic_add,
        "shaderBufferFloat32AtomicAdd or shaderSharedFloat32AtomicAdd",
    );
    let float_min_max = have_float2.shader_buffer_float32_atomic_min_max
        | have_float2.shader_shared_float32_atomic_min_max;
    require(
        float_min_max,
        needs.float_atomic_min_max,
        "shaderBufferFloat32AtomicMinMax or shaderSharedFloat32AtomicMinMax",
    );
    if !missing.is_empty() {
        return Err(ReferenceError::MissingFeatures {
            device: name.to_owned(),
            features: missing,
        });
    }
    let enabled = Enabled {
        pipeline_statistics: on(have10.pipeline_statistics_query),
        mesh_queries: on(want_mesh.mesh_shader_queries),
        sample_rate_shading: on(have10.sample_rate_shading),
        storage_image_multisample: on(have10.shader_storage_image_multisample),
    };
    let want10 = vk::PhysicalDeviceFeatures::default()
        .pipeline_statistics_query(enabled.pipeline_statistics)
        // Point sizes other than 1 (point.mesh.glsl writes 200).
        .large_points(on(have10.large_points))
        .shader_int64(on(have10.shader_int64))
        .shader_int16(on(have10.shader_int16))
        .shader_float64(on(have10.shader_float64))
        .fragment_stores_and_atomics(on(have10.fragment_stores_and_atomics))
        .vertex_pipeline_stores_and_atomics(on(have10.vertex_pipeline_stores_and_atomics))
        // Dynamic indices into descriptor arrays.
        .shader_storage_buffer_array_dynamic_indexing(on(
            have10.shader_storage_buffer_array_dynamic_indexing
        ))
        .shader_uniform_buffer_array_dynamic_indexing(on(
            have10.shader_uniform_buffer_array_dynamic_indexing
        ))
        // Images (docs/RUNS.md, "Images and samplers").
        .shader_sampled_image_array_dynamic_indexing(on(
            have10.shader_sampled_image_array_dynamic_indexing
        ))
        .shader_storage_image_array_dynamic_indexing(on(
            have10.shader_storage_image_array_dynamic_indexing
        ))
        .shader_image_gather_extended(on(have10.shader_image_gather_extended))
        .shader_storage_image_extended_formats(on(have10.shader_storage_image_extended_formats))
        .shader_storage_image_read_without_format(on(
            have10.shader_storage_image_read_without_format
        ))
        .shader_storage_image_write_without_format(on(
            have10.shader_storage_image_write_without_format
        ))
        .image_cube_array(on(have10.image_cube_array))
        // Multisampled images: filled per sample, stored to by shaders.
        .sample_rate_shading(enabled.sample_rate_shading)
        .shader_storage_image_multisample(enabled.storage_image_multisample);
    let mut want11 = vk::PhysicalDeviceVulkan11Features::default()
        .multiview(multiview)
        .variable_pointers_storage_buffer(on(have11.variable_pointers_storage_buffer))
        .variable_pointers(on(have11.variable_pointers))
        .storage_buffer16_bit_access(on(have11.storage_buffer16_bit_access))
        .uniform_and_storage_buffer16_bit_access(
            on(have11.uniform_and_storage_buffer16_bit_access),
        );
    let mut want12 = vk::PhysicalDeviceVulkan12Features::default()
        .shader_int8(on(have12.shader_int8))
        .shader_float16(on(have12.shader_float16))
        .storage_buffer8_bit_access(on(have12.storage_buffer8_bit_access))
        .uniform_and_storage_buffer8_bit_access(on(have12.uniform_and_storage_buffer8_bit_access))
        .vulkan_memory_model(on(have12.vulkan_memory_model))
        .vulkan_memory_model_device_scope(on(have12.vulkan_memory_model_device_scope))
        .shader_buffer_int64_atomics(on(have12.shader_buffer_int64_atomics))
        .shader_shared_int64_atomics(on(have12.shader_shared_int64_atomics))
        // Descriptor indexing: runtime-sized and non-uniformly indexed
        // descriptor arrays.
        .runtime_descriptor_array(on(have12.runtime_descriptor_array))
        .shader_storage_buffer_array_non_uniform_indexing(on(
            have12.shader_storage_buffer_array_non_uniform_indexing
        ))
        .shader_uniform_buffer_array_non_uniform_indexing(on(
            have12.shader_uniform_buffer_array_non_uniform_indexing
        ))
        .shader_sampled_image_array_non_uniform_indexing(on(
            have12.shader_sampled_image_array_non_uniform_indexing
        ))
        .shader_storage_image_array_non_uniform_indexing(on(
            have12.shader_storage_image_array_non_uniform_indexing
        ))
        .shader_uniform_texel_buffer_array_dynamic_indexing(on(
            have12.shader_uniform_texel_buffer_array_dynamic_indexing
        ))
        .shader_storage_texel_buffer_array_dynamic_indexing(on(
            have12.shader_storage_texel_buffer_array_dynamic_indexing
        ))
        .sampler_mirror_clamp_to_edge(on(have12.sampler_mirror_clamp_to_edge));
    let mut want13 = vk::PhysicalDeviceVulkan13Features::default()
        .maintenance4(on(have13.maintenance4))
        .subgroup_size_control(on(have13.subgroup_size_control))
        .compute_full_subgroups(on(have13.compute_full_subgroups));
    let priorities = [1.0f32];
    let queues = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family)
        .queue_priorities(&priorities)];
    let mut want_float = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default()
        .shader_buffer_float32_atomic_add(on(have_float.shader_buffer_float32_atomic_add))
        .shader_shared_float32_atomic_add(on(have_float.shader_shared_float32_atomic_add));
    let mut want_float2 = vk::PhysicalDeviceShaderAtomicFloat2FeaturesEXT::default()
        .shader_buffer_float32_atomic_min_max(on(have_float2.shader_buffer_float32_atomic_min_max))
        .shader_shared_float32_atomic_min_max(on(have_float2.shader_shared_float32_atomic_min_max));
    let mut extensions = Vec::new();
    if needs.mesh {
        extensions.push(ash::ext::mesh_shader::NAME.as_ptr());
    }
    if needs.mesh && primitive_rate {
        extensions.push(ash::khr::fragment_shading_rate::NAME.as_ptr());
    }
    if float_add_ext {
        extensions.push(ash::ext::shader_atomic_float::NAME.as_ptr());
    }
    if float_min_max_ext {
        extensions.push(ash::ext::shader_atomic_float2::NAME.as_ptr());
    }
    let mut features = vk::PhysicalDeviceFeatures2::default()
        .features(want10)
        .push_next(&mut want11)
        .push_next(&mut want12)
        .push_next(&mut want13);
    let mut create = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
    if needs.mesh {
        features = features.push_next(&mut want_mesh);
        if primitive_rate {
            features = features.push_next(&mut want_fsr);
        }
    }
    if float_add_ext {
        features = features.push_next(&mut want_float);
    }
    if float_min_max_ext {
        features = features.push_next(&mut want_float2);
    }
    if !extensions.is_empty() {
        create = create.enabled_extension_names(&extensions);
    }
    create = create.push_next(&mut features);
    // SAFETY: every feature enabled was reported supported; the create info
    // and its chain outlive the call.
    let device =
        unsafe { instance.create_device(pd, &create, None) }.map_err(vk_err("vkCreateDevice"))?;
    Ok((device, enabled))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn driver_versions_decode_the_vendors_way() {
        // NVIDIA 580.159.04 packs 10.8.8.6 bits.
        let nvidia = (580 << 22) | (159 << 14) | (4 << 6);
        assert_eq!(driver_version(0x10de, nvidia), "580.159.4.0");
        // Mesa uses the Vulkan version encoding.
        assert_eq!(
            driver_version(0x10005, vk::make_api_version(0, 22, 3, 6)),
            "22.3.6"
        );
    }
}
