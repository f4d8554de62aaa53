//! Compile-time limits (docs/HARDWARE.md, "Limits the H100's driver
//! reports"): a shader over an H100 limit is
//! refused with the execution mode or declaration and its value.

use crate::common;

use spvsass::backend::error::BackendError;

const OP_EXECUTION_MODE: u32 = 16;
const OUTPUT_VERTICES: u32 = 26;
const OUTPUT_PRIMITIVES: u32 = 5270;

/// `name` with the literals of its OpExecutionMode `mode` replaced.
fn patched(name: &str, mode: u32, values: &[u32]) -> Vec<u32> {
    let mut words = common::shader_words(name);
    let mut i = 5;
    let mut found = false;
    while i < words.len() {
        let (len, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if op == OP_EXECUTION_MODE && words[i + 2] == mode {
            words[i + 3..i + 3 + values.len()].copy_from_slice(values);
            found = true;
        }
        i += len;
    }
    assert!(found, "{name} has execution mode {mode}");
    words
}

fn limit_error(words: &[u32]) -> (String, u32, u32, &'static str, String) {
    match spvsass::compile(words, &spvsass::Options::default()) {
        Err(spvsass::Error::Backend(e @ BackendError::Limit { .. })) => {
            let text = e.to_string();
            let BackendError::Limit {
                what,
                value,
                limit,
                property,
            } = e
            else {
                unreachable!()
            };
            (what, value, limit, property, text)
        }
        other => panic!("expected a limit error, got {other:?}"),
    }
}

#[test]
fn too_many_vertices() {
    let (what, value, limit, property, text) =
        limit_error(&patched("triangle.mesh", OUTPUT_VERTICES, &[257]));
    assert_eq!(
        (what.as_str(), value, limit),
        ("OpExecutionMode OutputVertices", 257, 256)
    );
    assert_eq!(property, "maxMeshOutputVertices");
    assert_eq!(
        text,
        "OpExecutionMode OutputVertices = 257 exceeds the limit of 256 (maxMeshOutputVertices, H100)"
    );
}

#[test]
fn too_many_primitives() {
    let (what, value, limit, _, _) =
        limit_error(&patched("triangle.mesh", OUTPUT_PRIMITIVES, &[300]));
    assert_eq!(
        (what.as_str(), value, limit),
        ("OpExecutionMode OutputPrimitivesEXT", 300, 256)
    );
}

#[test]
fn too_many_invocations() {
    let (what, value, limit, _, _) = limit_error(&common::shader_words("d_limit_invocations.mesh"));
    assert_eq!(
        (what.as_str(), value, limit),
        ("OpExecutionMode LocalSize 16 3 3: invocations", 144, 128)
    );
}

#[test]
fn limits_themselves_are_allowed() {
    let words = patched("point.mesh", OUTPUT_VERTICES, &[256]);
    let words = {
        let mut w = words;
        let mut i = 5;
        while i < w.len() {
            let (len, op) = ((w[i] >> 16) as usize, w[i] & 0xffff);
            if op == OP_EXECUTION_MODE && w[i + 2] == OUTPUT_PRIMITIVES {
                w[i + 3] = 256;
            }
            i += len;
        }
        w
    };
    let c = spvsass::compile(&words, &spvsass::Options::default()).expect("at the limit");
    let m = c.binary.mesh.expect("mesh state");
    assert_eq!((m.max_vertices, m.max_primitives), (256, 256));
}

#[test]
fn too_much_output_memory() {
    let (what, value, limit, property, _) =
        limit_error(&common::shader_words("d_limit_memory.mesh"));
    assert_eq!(
        (what.as_str(), value, limit, property),
        (
            "mesh output memory: bytes",
            40960,
            32768,
            "maxMeshOutputMemorySize"
        )
    );
}

#[test]
fn too_big_a_payload() {
    let (what, value, limit, _, _) = limit_error(&common::shader_words("d_limit_payload.task"));
    assert_eq!(
        (what.as_str(), value, limit),
        ("the TaskPayloadWorkgroupEXT variable: bytes", 16388, 16384)
    );
}

#[test]
fn too_much_mesh_shared_memory() {
    let (what, value, limit, property, _) =
        limit_error(&common::shader_words("d_limit_shared.mesh"));
    assert_eq!(
        (what.as_str(), value, limit, property),
        (
            "Workgroup variables: bytes",
            28676,
            28672,
            "maxMeshSharedMemorySize"
        )
    );
}

#[test]
fn location_past_the_attribute_map() {
    let (what, value, limit, _, _) = limit_error(&common::shader_words("d_limit_location.mesh"));
    assert_eq!(
        (what.as_str(), value, limit),
        ("the Location of output %12", 32, 31)
    );
}

#[test]
fn too_much_task_shared_memory() {
    let (what, value, limit, property, text) =
        limit_error(&common::shader_words("d_limit_task_shared.task"));
    assert_eq!(
        (what.as_str(), value, limit, property),
        (
            "Workgroup variables: bytes",
            32772,
            32768,
            "maxTaskSharedMemorySize"
        )
    );
    assert_eq!(
        text,
        "Workgroup variables: bytes = 32772 exceeds the limit of 32768 (maxTaskSharedMemorySize, H100)"
    );
}

/// d_limit_task_shared.task with its shared array one word shorter: task
/// shared memory (32768 bytes) and payload (16384) both at their limits
/// compile, and the task's ISBE lines (the 0x20 reserved bytes and the
/// payload: 129 lines, then 256 of shared memory) fit SET_MESH_INIT_SHADER.
#[test]
fn task_shared_memory_and_payload_at_their_limits() {
    const OP_CONSTANT: u32 = 43;
    let mut words = common::shader_words("d_limit_task_shared.task");
    let mut i = 5;
    let mut patched = 0;
    while i < words.len() {
        let (len, op) = ((words[i] >> 16) as usize, words[i] & 0xffff);
        if op == OP_CONSTANT && len == 4 && words[i + 3] == 8193 {
            words[i + 3] = 8192;
            patched += 1;
        }
        i += len;
    }
    assert_eq!(patched, 1, "one array length of 8193");
    let task = spvsass::compile(&words, &spvsass::Options::default()).expect("at the limits");
    let state = task.binary.task.as_ref().expect("task state");
    assert_eq!(state.payload_bytes, 16384);
    let mesh = spvsass::compile(
        &common::shader_words("s_compact.mesh"),
        &spvsass::Options {
            task_present: true,
            ..Default::default()
        },
    )
    .expect("mesh compiles");
    let methods = spvsass::draw_methods(Some(&task.binary), &mesh.binary, 1, 0);
    let text = spvsass::backend::methods::print(&methods, spvsass::backend::target::Arch::Sm86)
        .expect("prints");
    assert!(text.contains(".LOCAL_BUFFER_LINES = (0x181)"), "{text}");
    assert!(text.contains(".OUTPUT_TO_M_S_LINES = (0x81)"), "{text}");
}
