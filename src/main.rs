//! The `menagerie` binary: see `menagerie --help`.

fn main() {
    // Output piped into a reader that has gone (`menagerie solve ... | head`): end quietly,
    // as command-line tools do, instead of reporting a panic.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let text = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if text.starts_with("failed printing to stdout") && text.contains("Broken pipe") {
            std::process::exit(141);
        }
        default_hook(info);
    }));
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(menagerie::cli::run(&args));
}
