// Reads a persona file: Lua run in the rule packs' sandbox, then every field checked.
package import Dwell
internal import DwellLua
internal import Foundation

/// Loads personas from a Lua file (`persona "casual" { ... }`), run in the same sandbox
/// as rule packs. Fields are data: numbers, strings, tables and the distribution helpers.
package enum PersonaFile {
  /// The words a persona file may use beside the rule packs' `minutes`, `hours`, `days`:
  /// locals on one line put before the file's first line, so that line numbers in errors
  /// stay the file's own (each script of a pack has its own environment).
  static let prelude =
    [
      "local __out, __list = plugin \"personas\", {}",
      // The field holding NaN or an infinity, refused at the persona's line (publishing
      // it would fail inside the prelude, at line 1, without naming it).
      "local function __infinite(value, depth)",
      "if type(value) == \"number\" then if value ~= value or value == 1/0 or value == -1/0 then return \"\" end",
      "elseif type(value) == \"table\" and depth < 8 then for key, item in pairs(value) do",
      "local path = __infinite(item, depth + 1)",
      "if path then return \".\" .. tostring(key) .. path end end end end",
      "local function persona(name)",
      // Bounded like other inputs: each persona republishes the list, so a file that
      // declared personas in a loop took time quadratic in their number (#28).
      "if #__list >= \(maximumPersonas) then",
      "error(\"more than \(maximumPersonas) personas (the most a persona file may declare)\", 2) end",
      "if type(name) ~= \"string\" or name == \"\" then",
      "error('persona needs a name, as in persona \"casual\" { ... }', 2) end",
      "return function(spec)",
      "if type(spec) ~= \"table\" then error(\"persona '\" .. name .. \"' needs a table { ... }\", 2) end",
      "local field = __infinite(spec, 0)",
      "if field then error(\"persona '\" .. name .. \"': \" .. field:sub(2) .. \" is not a finite number\", 2) end",
      // The line of the declaration, for errors about its fields: where error() at the
      // caller's level would point.
      "local _, where = pcall(error, \"\", 3)",
      "__list[#__list + 1] = { name = name, spec = spec, line = tonumber(tostring(where):match(\":(%d+): $\")) }",
      "__out.publish(\"list\", __list) end end",
      "local function uniform(low, high) return { uniform = { low, high } } end",
      "local function normal(mean, deviation) return { normal = { mean, deviation } } end",
      "local function lognormal(median, spread) return { lognormal = { median, spread } } end",
      "local function poisson(mean) return { poisson = mean } end",
    ].joined(separator: " ") + " "

  /// The most personas one file may declare: each declaration publishes the list, and a
  /// pack publishes at most 100 values a tick (`ScriptLimits.actionsPerTick`), so a 101st
  /// would be dropped; it is refused instead.
  package static let maximumPersonas = 100

  /// Loads the personas of the Lua file at `path`, refused from its size when over 4 MiB
  /// (the rule files' limit).
  ///
  /// - Throws: `RuleError` naming the file (and the line, for Lua errors) and the persona.
  package static func load(_ path: String) throws(RuleError) -> Population {
    try parse(String(decoding: RuleFile.read(path), as: UTF8.self), file: path)
  }

  /// Parses persona-file text; `file` names it in errors.
  package static func parse(_ text: String, file: String) throws(RuleError) -> Population {
    let pack = try LuaRulePack(scripts: [(file, prelude + text)])
    if let rule = pack.rules.first {
      throw RuleError("\(file): declares rule '\(rule.id)'; a persona file declares personas only")
    }
    guard case .array(let items)? = pack.publishedJSON["personas"]?["list"], !items.isEmpty else {
      throw RuleError("\(file): no persona; declare one with persona \"name\" { ... }")
    }
    var personas: [Persona] = []
    for item in items {
      guard case .string(let name)? = item["name"], let spec = item["spec"] else { continue }
      var place = file
      if case .number(let line, _)? = item["line"], line >= 1, line < 1e9 { place += ":\(Int(line))" }
      guard !personas.contains(where: { $0.name == name }) else {
        throw RuleError("\(place): persona '\(name)' is defined twice")
      }
      do {
        personas.append(try PersonaFields(name: name, spec: spec).persona())
      } catch {
        throw RuleError("\(place): persona '\(name)': \(error.message)")
      }
    }
    return Population(personas)
  }
}
