//! The `menagerie` binary: see `menagerie --help`.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(menagerie::cli::run(&args));
}
