//! Compiles the contract in `proto/` with protox (a protobuf compiler in pure Rust, so no system
//! `protoc` is needed) and generates from it:
//!
//! - the messages, clients and servers, with tonic-prost-build;
//! - the encoded descriptor set (with comments and custom options) for server reflection;
//! - the table of roles each RPC allows, read from the `bridgeclub.common.v1.allowed_roles` method
//!   option, and the list of RPCs called without a token, read from `bridgeclub.common.v1.anonymous`.
//!   An RPC that sets neither, or both, fails the build: the contract is where each RPC states
//!   who may call it, and an RPC nobody has thought about must not slip through as open or closed;
//! - the size limits of every string and bytes field a request can hold, from the
//!   `bridgeclub.common.v1.max_bytes` field option (see `src/limits.rs`), for the request codec.

use std::error::Error;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

use protox::prost_reflect::{DescriptorPool, Value};

/// The custom method option every RPC must set (proto/bridgeclub/common/v1/auth.proto).
const ALLOWED_ROLES_OPTION: &str = "bridgeclub.common.v1.allowed_roles";
/// The custom method option that marks an RPC called without a token (signing in).
const ANONYMOUS_OPTION: &str = "bridgeclub.common.v1.anonymous";
/// The enum the option lists.
const ROLE_ENUM: &str = "bridgeclub.common.v1.Role";
/// The custom field option bounding a request's string or bytes field (proto/bridgeclub/common/v1/limits.proto).
const MAX_BYTES_OPTION: &str = "bridgeclub.common.v1.max_bytes";
/// What a string or bytes field without the option may hold.
const DEFAULT_MAX_BYTES: u32 = 256;
/// The package prefix of the club's own services (imports such as google.protobuf have none).
const OWN_PACKAGE_PREFIX: &str = "bridgeclub.";

fn main() {
    if let Err(error) = generate() {
        // A protox error carries the file, line and column; its Debug form shows them.
        eprintln!("error: {error}\n{error:?}");
        std::process::exit(1);
    }
}

fn generate() -> Result<(), Box<dyn Error>> {
    let manifest_dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").ok_or("CARGO_MANIFEST_DIR is not set")?);
    let out_dir = PathBuf::from(env::var_os("OUT_DIR").ok_or("OUT_DIR is not set")?);
    let proto_root = manifest_dir.join("../../proto");
    let proto_root = proto_root.canonicalize().map_err(|e| format!("{}: {e}", proto_root.display()))?;

    let mut files = Vec::new();
    collect_protos(&proto_root.join("bridgeclub"), &mut files)?;
    files.sort();
    println!("cargo:rerun-if-changed={}", proto_root.display());
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
    }

    let mut compiler = protox::Compiler::new([&proto_root])?;
    compiler.include_source_info(true).include_imports(true);
    compiler.open_files(&files)?;

    // Reflection clients need the imports (google/protobuf/*) too, and the comments make the
    // descriptors self-documenting for tools such as grpcurl and grpcui.
    fs::write(out_dir.join("bridgeclub_descriptor.bin"), compiler.encode_file_descriptor_set())?;
    fs::write(out_dir.join("allowed_roles.rs"), allowed_roles_table(&compiler.descriptor_pool())?)?;
    fs::write(out_dir.join("field_limits.rs"), field_limits_table(&compiler.descriptor_pool())?)?;

    // Every message knows its proto name (`prost::Name`), so the request codec can find its limits.
    let mut config = tonic_prost_build::Config::new();
    config.enable_type_names();
    tonic_prost_build::configure()
        .emit_rerun_if_changed(false)
        .codec_path("crate::codec::CheckedCodec")
        .compile_fds_with_config(compiler.file_descriptor_set(), config)?;
    Ok(())
}

/// Every `.proto` file under `dir`.
fn collect_protos(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), Box<dyn Error>> {
    for entry in fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))? {
        let path = entry?.path();
        if path.is_dir() {
            collect_protos(&path, files)?;
        } else if path.extension().is_some_and(|ext| ext == "proto") {
            files.push(path);
        }
    }
    Ok(())
}

/// The Rust source of `ALLOWED_ROLES`: every RPC's gRPC path with the roles its option lists,
/// sorted by path so that lookups can binary-search.
fn allowed_roles_table(pool: &DescriptorPool) -> Result<String, Box<dyn Error>> {
    let option = pool
        .get_extension_by_name(ALLOWED_ROLES_OPTION)
        .ok_or_else(|| format!("the {ALLOWED_ROLES_OPTION} method option is not defined"))?;
    let anonymous = pool
        .get_extension_by_name(ANONYMOUS_OPTION)
        .ok_or_else(|| format!("the {ANONYMOUS_OPTION} method option is not defined"))?;
    let role_enum = pool.get_enum_by_name(ROLE_ENUM).ok_or_else(|| format!("the {ROLE_ENUM} enum is not defined"))?;

    let mut table = Vec::new();
    let mut open = Vec::new();
    for service in pool.services().filter(|s| s.full_name().starts_with(OWN_PACKAGE_PREFIX)) {
        for method in service.methods() {
            let path = format!("/{}/{}", service.full_name(), method.name());
            let options = method.options();
            let listed = options.get_extension(&option);
            let numbers: Vec<i32> = match listed.as_ref() {
                Value::List(values) => values.iter().filter_map(Value::as_enum_number).collect(),
                other => return Err(format!("{path}: {ALLOWED_ROLES_OPTION} is not a list of roles: {other:?}").into()),
            };
            let is_anonymous = match options.get_extension(&anonymous).as_ref() {
                Value::Bool(set) => *set,
                other => return Err(format!("{path}: {ANONYMOUS_OPTION} is not a bool: {other:?}").into()),
            };
            match (numbers.is_empty(), is_anonymous) {
                (true, true) => {
                    open.push(path);
                    continue;
                }
                (false, true) => {
                    return Err(format!(
                        "{path} sets both {ANONYMOUS_OPTION} and {ALLOWED_ROLES_OPTION}: an RPC called without a \
                         token has no roles to check"
                    )
                    .into());
                }
                (true, false) => {
                    return Err(format!(
                        "{path} does not state the roles it allows: add `option ({ALLOWED_ROLES_OPTION}) = \
                         ROLE_...;` once per role (or, for an RPC that hands out tokens, `option \
                         ({ANONYMOUS_OPTION}) = true;`)"
                    )
                    .into());
                }
                (false, false) => {}
            }
            let mut variants = Vec::with_capacity(numbers.len());
            for number in numbers {
                let value =
                    role_enum.get_value(number).ok_or_else(|| format!("{path}: unknown role number {number}"))?;
                let variant = rust_variant(value.name(), "ROLE_")
                    .ok_or_else(|| format!("{path}: {} is not a role a caller can hold", value.name()))?;
                if variants.contains(&variant) {
                    return Err(format!("{path}: {} is listed twice", value.name()).into());
                }
                variants.push(variant);
            }
            table.push((path, variants));
        }
    }
    table.sort();

    let mut source = String::from(
        "// Generated by services/api/build.rs from the allowed_roles option of every RPC in proto/.\n\n\
         /// Every RPC of every bridgeclub service, by gRPC path (`/package.Service/Method`), with the roles\n\
         /// its `allowed_roles` option lists, sorted by path.\n\
         pub static ALLOWED_ROLES: &[(&str, &[Role])] = &[\n",
    );
    for (path, variants) in &table {
        let roles: Vec<String> = variants.iter().map(|v| format!("Role::{v}")).collect();
        writeln!(source, "    ({path:?}, &[{}]),", roles.join(", "))?;
    }
    source.push_str("];\n");
    open.sort();
    source.push_str(
        "\n/// Every RPC whose `anonymous` option is set (called without a token: signing in), by gRPC path,\n\
         /// sorted. None of them is in `ALLOWED_ROLES`.\n\
         pub static ANONYMOUS: &[&str] = &[\n",
    );
    for path in &open {
        writeln!(source, "    {path:?},")?;
    }
    source.push_str("];\n");
    Ok(source)
}

/// The Rust source of `MESSAGES`: every message a request can hold (the RPCs' input types and the
/// messages inside them), sorted by full name, each with its string, bytes and message fields by
/// number: the string and bytes fields with their limit, the message fields with the index of their
/// type in the same table.
fn field_limits_table(pool: &DescriptorPool) -> Result<String, Box<dyn Error>> {
    use protox::prost_reflect::{Kind, MessageDescriptor};

    let option = pool
        .get_extension_by_name(MAX_BYTES_OPTION)
        .ok_or_else(|| format!("the {MAX_BYTES_OPTION} field option is not defined"))?;
    let mut requests: Vec<MessageDescriptor> = pool
        .services()
        .filter(|s| s.full_name().starts_with(OWN_PACKAGE_PREFIX))
        .flat_map(|s| s.methods().map(|m| m.input()).collect::<Vec<_>>())
        .collect();
    let request_names: std::collections::BTreeSet<String> = requests.iter().map(|m| m.full_name().to_owned()).collect();
    let mut reachable = std::collections::BTreeMap::new();
    while let Some(message) = requests.pop() {
        if reachable.insert(message.full_name().to_owned(), message.clone()).is_some() {
            continue;
        }
        for field in message.fields() {
            if let Kind::Message(inner) = field.kind() {
                requests.push(inner);
            }
        }
    }
    let index: std::collections::BTreeMap<&str, usize> =
        reachable.keys().enumerate().map(|(i, name)| (name.as_str(), i)).collect();

    let mut source = String::from(
        "// Generated by services/api/build.rs from the max_bytes option of the fields in proto/.\n\n\
         /// Every message a request can hold, sorted by full name.\n\
         pub(crate) static MESSAGES: &[MessageLimits] = &[\n",
    );
    for (name, message) in &reachable {
        let mut fields: Vec<String> = Vec::new();
        let mut sorted: Vec<_> = message.fields().collect();
        sorted.sort_by_key(|f| f.number());
        for field in sorted {
            let limit = match field.options().get_extension(&option).as_ref() {
                Value::U32(0) => DEFAULT_MAX_BYTES,
                Value::U32(limit) => *limit,
                other => {
                    return Err(format!("{}: {MAX_BYTES_OPTION} is not a number: {other:?}", field.full_name()).into());
                }
            };
            let kind = match field.kind() {
                Kind::String => format!("Kind::Text {{ max: {limit} }}"),
                Kind::Bytes => format!("Kind::Bytes {{ max: {limit} }}"),
                Kind::Message(inner) => format!("Kind::Message({})", index[inner.full_name()]),
                _ => continue,
            };
            fields.push(format!("Field {{ number: {}, name: {:?}, kind: {kind} }}", field.number(), field.name()));
        }
        writeln!(
            source,
            "    MessageLimits {{ name: {name:?}, request: {}, fields: &[{}] }},",
            request_names.contains(name),
            fields.join(", ")
        )?;
    }
    source.push_str("];\n");
    Ok(source)
}

/// The Rust variant prost generates for an enum value: the enum's prefix stripped and the rest in
/// UpperCamelCase (`ROLE_COMMITTEE` is `Committee`). `None` for the zero value, which is not a role.
fn rust_variant(value_name: &str, prefix: &str) -> Option<String> {
    let bare = value_name.strip_prefix(prefix)?;
    if bare == "UNSPECIFIED" {
        return None;
    }
    let mut variant = String::with_capacity(bare.len());
    for word in bare.split('_').filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            variant.push(first.to_ascii_uppercase());
            variant.extend(chars.map(|c| c.to_ascii_lowercase()));
        }
    }
    Some(variant)
}
