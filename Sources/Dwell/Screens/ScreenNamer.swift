/// Readable screen names from class names: module prefixes and generic wrappers removed.
///
/// ```swift
/// ScreenNamer.name(forClass: "MyApp.LessonsViewController")                  // "LessonsViewController"
/// ScreenNamer.name(forClass: "NSKVONotifying_MyApp.LessonsViewController")   // "LessonsViewController"
/// ScreenNamer.name(forClass: "SwiftUI.UIHostingController<MyApp.LessonsView>") // "LessonsView"
/// ScreenNamer.name(forClass: "UIHostingController<ModifiedContent<LessonsView, _EnvironmentKeyWritingModifier<Optional<Store>>>>") // "LessonsView"
/// ```
package enum ScreenNamer {
  /// Wrappers whose first generic argument is the real content.
  static let wrappers: Set<String> = [
    "UIHostingController", "NSHostingController", "ModifiedContent", "Optional", "AnyView", "_UIHostingView",
    "TupleView", "Group",
  ]

  /// The prefix of the subclasses key-value observing makes at run time: an observed
  /// `MyApp.Lessons` reports `NSKVONotifying_MyApp.Lessons` as its class.
  static let runtimePrefixes = ["NSKVONotifying_"]

  /// `name` without the prefix of a class made at run time (``runtimePrefixes``).
  static func withoutRuntimePrefix(_ name: String) -> Substring {
    var text = Substring(name)
    for prefix in runtimePrefixes where text.hasPrefix(prefix) { text = text.dropFirst(prefix.count) }
    return text
  }

  /// The name for a controller or view class.
  package static func name(forClass raw: String) -> String {
    var text = Substring(String(withoutRuntimePrefix(raw)).trimmingCharacters(in: " "))
    // Unwrap known wrappers: take their first generic argument.
    while let open = text.firstIndex(of: "<"), text.last == ">" {
      let head = unqualified(text[..<open])
      let inner = text[text.index(after: open)..<text.index(before: text.endIndex)]
      if wrappers.contains(String(head)) {
        text = firstArgument(inner)
      } else {
        text = head
        break
      }
    }
    let name = String(unqualified(text))
    return ScreenName.clean(name.isEmpty ? raw : name)
  }

  private static func unqualified(_ text: Substring) -> Substring {
    // "MyApp.Feature.LessonsViewController" -> "LessonsViewController"; "(extension in X)" noise too.
    var base = text
    if let open = base.firstIndex(of: "<") { base = base[..<open] }
    return base.split(separator: ".").last ?? base
  }

  /// The first top-level argument of a generic argument list.
  private static func firstArgument(_ list: Substring) -> Substring {
    var depth = 0
    for index in list.indices {
      switch list[index] {
      case "<": depth += 1
      case ">": depth -= 1
      case "," where depth == 0: return list[..<index].trimmingCharacters(in: " ")[...]
      default: break
      }
    }
    return Substring(list.trimmingCharacters(in: " "))
  }
}

extension Substring {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
  }
}

extension String {
  fileprivate func trimmingCharacters(in set: Character) -> String {
    Substring(self).trimmingCharacters(in: set)
  }
}
