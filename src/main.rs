use std::process::ExitCode;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `mi_option_arena_eager_commit` (its option 4 since version 3; the crate's
/// own constants still number version 2's options).
const ARENA_EAGER_COMMIT: libmimalloc_sys::mi_option_t = 4;

/// On Linux mimalloc commits its arenas whole, and every page a deadline's pictures once
/// touched stays resident: 183 MB at the peak of 300 games, against 92 MB with arenas
/// committed on demand, in the same time (docs/performance.md, "The allocator's arenas").
/// Set before `main`, as the process's loader runs constructors: the first arena is
/// reserved at the first allocation, which the runtime makes before `main`.
extern "C" fn arenas_on_demand() {
    // SAFETY: the call only stores an option's value; no other thread runs yet.
    unsafe { libmimalloc_sys::mi_option_set(ARENA_EAGER_COMMIT, 0) };
}

#[used]
#[unsafe(link_section = ".init_array")]
static ARENAS_ON_DEMAND: extern "C" fn() = arenas_on_demand;

fn main() -> ExitCode {
    corbeau::cli::main()
}
