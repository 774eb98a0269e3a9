// MARK: - ArgumentScanner

/// Reads a command line into the options it sets, as getopt does: `--name VALUE`,
/// `--name=VALUE`, `-n VALUE`, `-nVALUE`, flags grouped (`-cq`), options before, between and
/// after the URLs, and `--` before arguments that only look like options. A flag also takes
/// aria2's spelling, `--name=true` or `--name=false`. An option given twice keeps its last value,
/// unless it is repeatable (`--header`).
struct ArgumentScanner<Target> {
    let options: [OptionSpec<Target>]
    /// What an argument that is not an option does; nil when the command takes none.
    let positional: ((inout Target, String) -> Void)?

    /// Sets `target` from `arguments`, or says which argument is wrong.
    func scan(_ arguments: [String], into target: inout Target) throws(UsageError) {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                guard let positional else { throw UsageError("Unexpected argument '\(argument)'") }
                positional(&target, argument)
            } else if argument == "--" {
                optionsEnded = true
            } else if argument.hasPrefix("--") {
                try long(argument, in: arguments, at: &index, into: &target)
            } else {
                try shorts(argument, in: arguments, at: &index, into: &target)
            }
        }
    }

    /// `--name`, `--name=VALUE` or `--no-name`, its value taken from the next argument if needed.
    private func long(
        _ argument: String, in arguments: [String], at index: inout Int, into target: inout Target
    ) throws(UsageError) {
        let body = argument.dropFirst(2)
        let name = String(body.prefix { $0 != "=" })
        let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        if let option = options.first(where: { $0.info.long == name }) {
            switch option.action {
            case .flag(let set):
                set(&target, try flagValue(inline, of: option.info))
            case .value(let set):
                let value: String
                if let inline {
                    value = inline
                } else {
                    value = try next(in: arguments, at: &index, for: option.info, spelled: argument)
                }
                try apply(set, of: option.info, value, into: &target)
            }
            return
        }
        if name.hasPrefix("no-"), inline == nil,
            let option = options.first(where: { $0.info.inversion && $0.info.long == name.dropFirst(3) }),
            case .flag(let set) = option.action
        {
            set(&target, false)
            return
        }
        throw UsageError("Unknown option '--\(name)'\(suggestion(for: name))")
    }

    /// `-c`, `-cq`, `-x4` or `-x 4`: flags until one takes a value, which is the rest of the
    /// argument or else the next one.
    private func shorts(
        _ argument: String, in arguments: [String], at index: inout Int, into target: inout Target
    ) throws(UsageError) {
        var letters = argument.dropFirst()
        while let letter = letters.first {
            letters = letters.dropFirst()
            guard let option = options.first(where: { $0.info.short == letter }) else {
                throw UsageError("Unknown option '-\(letter)'")
            }
            switch option.action {
            case .flag(let set):
                set(&target, true)
            case .value(let set):
                let value =
                    letters.isEmpty
                    ? try next(in: arguments, at: &index, for: option.info, spelled: "-\(letter)") : String(letters)
                try apply(set, of: option.info, value, into: &target)
                return
            }
        }
    }

    /// The argument after an option, its value.
    private func next(
        in arguments: [String], at index: inout Int, for option: OptionInfo, spelled: String
    ) throws(UsageError) -> String {
        guard index < arguments.count else {
            throw UsageError("Missing value for '\(spelled) <\(option.valueName ?? "")>'")
        }
        index += 1
        return arguments[index - 1]
    }

    /// A flag's aria2 spelling, `=true` or `=false`; given alone, it is on.
    private func flagValue(_ inline: String?, of option: OptionInfo) throws(UsageError) -> Bool {
        switch inline?.lowercased() {
        case nil, "true": return true
        case "false": return false
        case let other?:
            throw UsageError("'--\(option.long)' is a flag: give it alone, or =true or =false, not '\(other)'")
        }
    }

    /// Sets `value` with `set`, the setter of `option`; a value it refuses is a usage error
    /// naming the option.
    private func apply(
        _ set: @Sendable (inout Target, String) throws -> Void, of option: OptionInfo, _ value: String,
        into target: inout Target
    ) throws(UsageError) {
        do {
            try set(&target, value)
        } catch {
            let reason = "\(error)"
            throw UsageError(
                "The value '\(value)' is invalid for '\(option.label)'\(reason.isEmpty ? "" : ": \(reason)")")
        }
    }

    /// ". Did you mean '--dir'?" when a visible option's name is one or two edits from `name`.
    private func suggestion(for name: String) -> String {
        let near = options.lazy.filter { !$0.info.hidden }.map(\.info.long)
            .map { (name: $0, distance: ArgumentScanner.editDistance(name, $0)) }
            .filter { $0.distance <= 2 }
            .min { $0.distance < $1.distance }
        return near.map { ". Did you mean '--\($0.name)'?" } ?? ""
    }

    /// The Levenshtein distance between `a` and `b`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let b = Array(b)
        var row = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, y) in b.enumerated() {
                let above = row[j + 1]
                row[j + 1] = min(above + 1, row[j] + 1, diagonal + (x == y ? 0 : 1))
                diagonal = above
            }
        }
        return row[b.count]
    }
}
