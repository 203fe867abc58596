//! C ─► KPL: kernels, parameters, declarations and statements. Every KPL name is unique in
//! the kernel (C's shadowing and sibling scopes become renamings), `__device__` functions
//! are inlined at their calls, `return` becomes a flag that disables the returned threads
//! for the rest of the function (the paper's K-CALL), `for` and `do` become `while`.
//! Stage 4, lowering: imports `text`, `syntax` and `sema`, never the stages after it.

pub(crate) mod agg;
pub(crate) mod agg_types;
pub(crate) mod ast_facts;
pub(crate) mod annotations;
pub(crate) mod async_copy;
pub(crate) mod atomics;
pub(crate) mod auto_types;
pub(crate) mod builtins;
pub(crate) mod bytes;
pub(crate) mod calls;
pub(crate) mod casts;
pub(crate) mod context;
pub mod contract_calls;
pub(crate) mod ctypes;
pub(crate) mod expr;
pub(crate) mod expr_calls;
pub(crate) mod fnptr;
pub(crate) mod gotos;
pub(crate) mod image_access;
pub(crate) mod inline_temps;
pub(crate) mod kernel;
pub(crate) mod libcu_atomics;
pub(crate) mod long;
pub(crate) mod long_counters;
pub(crate) mod long_div;
pub(crate) mod memcpy;
pub(crate) mod memory_decls;
pub mod modular;
pub(crate) mod multiptr;
pub(crate) mod null_pointers;
pub(crate) mod operator_calls;
pub(crate) mod places;
pub(crate) mod overload_calls;
pub(crate) mod pointer_fields;
pub(crate) mod pointers;
pub(crate) mod private;
pub(crate) mod references;
pub(crate) mod statements;
pub(crate) mod statics;
pub(crate) mod values;
pub(crate) mod warp;

use crate::syntax::ast::*;
use crate::lower::values::PtrDecl;
use crate::sema::types::TypeTable;
use crate::options::FrontOptions;
use kpl_lang::ast::{self as k};
use kpl_lang::diagnostic::Diagnostic;
use kpl_lang::span::Span;
use std::collections::{HashMap, HashSet};
use crate::lower::context::Lower;
use crate::lower::values::Entity;

pub(crate) struct Lowered {
    pub kernel: Option<k::Kernel>,
    pub layouts: kpl_lang::layout::Layouts,
    /// `Lower::launch_params`.
    pub launch_params: Vec<(String, Option<i64>)>,
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

/// Lowering passes at most: each may find pointers with more targets than it knew, or
/// arrays a cast must see at bytes (`bytes.rs`).
const MAX_PASSES: usize = 5;

pub(crate) fn lower<'u>(unit: &'u Unit, types: &'u TypeTable, o: &'u FrontOptions, indeterminate: &'u HashSet<Span>) -> Lowered {
    let mut sets = HashMap::new();
    let mut bytes = HashMap::new();
    let mut pass = 1;
    loop {
        let (mut lowered, next, changed, wanted) = lower_pass(unit, types, o, indeterminate, sets, bytes.clone());
        // A cast found an array it must see at bytes: lower again with it so.
        let more_bytes = wanted.keys().any(|a| !bytes.contains_key(a));
        bytes.extend(wanted);
        if changed && pass == MAX_PASSES {
            // The last pass still skipped assignments it could not lower: never use it.
            lowered.errors.push(Diagnostic::error(
                format!("kpl could not settle which arrays the kernel's pointers point into in {MAX_PASSES} lowerings"),
                Span::new(0, 0),
            ));
        }
        // (A pass that wanted an array at bytes refused the cast that wanted it.)
        if !(changed || more_bytes) || pass == MAX_PASSES {
            return lowered;
        }
        sets = next;
        pass += 1;
    }
}

fn lower_pass<'u>(
    unit: &'u Unit,
    types: &'u TypeTable,
    o: &'u FrontOptions,
    indeterminate: &'u HashSet<Span>,
    sets: HashMap<PtrDecl, Vec<Option<Entity>>>,
    byte_level: HashMap<String, u32>,
) -> (Lowered, HashMap<PtrDecl, Vec<Option<Entity>>>, bool, HashMap<String, u32>) {
    let has_multi = sets.values().any(|s| crate::lower::multiptr::is_multi(s));
    let mut l = Lower {
        o,
        funcs: HashMap::new(),
        overloads: HashMap::new(),
        operator_functions: false,
        scopes: vec![HashMap::new()],
        used: HashSet::new(),
        blocks: Vec::new(),
        decls: Vec::new(),
        param_arrays: HashSet::new(),
        null_flags: HashMap::new(),
        frames: Vec::new(),
        errors: Vec::new(),
        warnings: Vec::new(),
        temps: 0,
        pending_invariants: Vec::new(),
        pending_barrier_invariants: Vec::new(),
        hoisted_requires: HashSet::new(),
        pointers: HashSet::new(),
        two_thread_ok: false,
        has_long: false,
        in_loop_invariant: false,
        types,
        layouts: HashMap::new(),
        laying_out: Vec::new(),
        invalid_structs: HashSet::new(),
        array_layouts: Default::default(),
        launch_params: Vec::new(),
        word_bytes: HashMap::new(),
        field_widths: HashMap::new(),
        constant_arrays: Default::default(),
        images_read: HashMap::new(),
        images_written: HashMap::new(),
        constant_locals: HashMap::new(),
        const_locals: HashMap::new(),
        private_regions: HashMap::new(),
        indeterminate,
        addressed: crate::lower::private::addressed(unit),
        field_indexed: crate::lower::private::field_indexed(unit),
        sizeofs: crate::sema::sizeof_expr::sizes(unit, types, o.dialect),
        fn_order: Vec::new(),
        ptr_sets: sets,
        ptr_changed: false,
        has_multi,
        rewrites_pointer_paths: false,
        extern_shared: None,
        ptr_decl_of: HashMap::new(),
        ptr_result: None,
        copies: Vec::new(),
        copy_param: None,
        kernel_locals: Vec::new(),
        private_arrays: HashSet::new(),
        statics: HashMap::new(),
        byte_level,
        bytes_declared: HashSet::new(),
        wants_bytes: HashMap::new(),
        pointer_storage: HashSet::new(),
        host_variables: unit.host_variables.clone(),
    };
    for b in kpl_lang::ast::Builtin::ALL {
        l.used.insert(b.name().to_string());
    }
    let kernel = l.unit(unit);
    let lowered = Lowered { kernel, errors: l.errors, warnings: l.warnings, layouts: l.array_layouts, launch_params: l.launch_params };
    (lowered, l.ptr_sets, l.ptr_changed, l.wants_bytes)
}

