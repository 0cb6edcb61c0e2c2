use std::process::ExitCode;

fn main() -> ExitCode {
    corbeau::cli::main()
}
