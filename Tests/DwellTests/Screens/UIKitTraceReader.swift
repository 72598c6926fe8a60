// Reads the UIKit callback traces of ../shared/uikit-traces (README.md there): each line
// becomes the plain value the UIKit adapter builds on a device (UIKitCallback), or the
// process's launch and terminate. It interprets nothing: the decisions are all in
// ScreenCoordinator.handle(_:), the code under test.

import Dwell
import Foundation

/// One line of a UIKit callback trace.
struct UIKitTraceLine {
  enum Kind {
    case launch(wall: WallInstant, zone: TimeZone)
    case terminate
    case callback(UIKitCallback)
  }
  let number: Int
  let t: Double
  let kind: Kind
}

/// Why a trace could not be read: the file, the line and what is wrong with it.
struct UIKitTraceError: Error, CustomStringConvertible {
  let description: String
}

enum UIKitTraceReader {
  static let appearanceFields: Set<String> = [
    "vc", "class", "superclasses", "bundle", "parent", "presenting", "style", "window", "windowScene", "animated",
    "isMovingToParent", "isMovingFromParent", "isBeingPresented", "isBeingDismissed",
  ]
  static let fields: [String: Set<String>] = [
    "launch": ["wall", "tz"], "terminate": [], "sceneWillConnect": ["scene", "role"],
    "sceneWillEnterForeground": ["scene"], "sceneDidBecomeActive": ["scene"], "sceneWillResignActive": ["scene"],
    "sceneDidEnterBackground": ["scene"], "sceneDidDisconnect": ["scene"], "touch": ["scene", "window"],
    "viewWillAppear": appearanceFields, "viewDidAppear": appearanceFields, "viewWillDisappear": appearanceFields,
    "viewDidDisappear": appearanceFields,
  ]

  /// The lines of the trace file at `path`; an error names the file and the line.
  static func read(path: String) throws -> [UIKitTraceLine] {
    guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8)
    else { throw UIKitTraceError(description: "\(path): cannot be read as UTF-8") }
    var lines: [UIKitTraceLine] = []
    var number = 0
    var previous = -Double.infinity
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
      number += 1
      guard !raw.allSatisfy(\.isWhitespace) else { continue }
      do {
        let line = try parse(String(raw), number: number)
        guard line.t >= previous else { throw UIKitTraceError(description: "t \(line.t) is before \(previous)") }
        previous = line.t
        lines.append(line)
      } catch {
        throw UIKitTraceError(description: "\(path):\(number): \(error)")
      }
    }
    return lines
  }

  static func parse(_ text: String, number: Int) throws -> UIKitTraceLine {
    let object: Any
    do {
      object = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    } catch {
      throw UIKitTraceError(description: "not JSON")
    }
    guard let fields = object as? [String: Any] else { throw UIKitTraceError(description: "not a JSON object") }
    let line = Fields(values: fields)
    let call = try line.string("call")
    let t = try line.number("t")
    guard t.isFinite, t >= 0 else { throw UIKitTraceError(description: "t must be a number at least 0") }
    guard let allowed = Self.fields[call] else { throw UIKitTraceError(description: "unknown call \"\(call)\"") }
    let extra = Set(fields.keys).subtracting(allowed).subtracting(["t", "call"])
    guard extra.isEmpty else {
      throw UIKitTraceError(description: "\(call) has no field \(extra.sorted().joined(separator: ", "))")
    }
    func scene() throws -> ScreenInstance { ScreenInstance(try line.string("scene")) }
    let kind: UIKitTraceLine.Kind
    switch call {
    case "launch":
      let wall = try line.string("wall")
      let zoneName = try line.string("tz")
      guard let zone = TimeZone(identifier: zoneName) else {
        throw UIKitTraceError(description: "unknown tz \(zoneName)")
      }
      guard
        case .launch(let instant?, _)? = try? TraceParser.parseLine(
          #"{"t":0,"event":"launch","wall":"\#(wall)","tz":"UTC"}"#, number: 1, isFirst: true
        ).kind
      else { throw UIKitTraceError(description: "wall \"\(wall)\" is not ISO 8601") }
      kind = .launch(wall: instant, zone: zone)
    case "terminate": kind = .terminate
    case "sceneWillConnect":
      kind = .callback(.sceneWillConnect(try scene(), role: SceneRole(name: try line.string("role"))))
    case "sceneWillEnterForeground": kind = .callback(.sceneWillEnterForeground(try scene()))
    case "sceneDidBecomeActive": kind = .callback(.sceneDidBecomeActive(try scene()))
    case "sceneWillResignActive": kind = .callback(.sceneWillResignActive(try scene()))
    case "sceneDidEnterBackground": kind = .callback(.sceneDidEnterBackground(try scene()))
    case "sceneDidDisconnect": kind = .callback(.sceneDidDisconnect(try scene()))
    case "touch":
      kind = .callback(.touch(scene: ScreenInstance(try line.string("scene")), window: try line.instance("window")))
    default:
      let controller = try description(line)
      switch call {
      case "viewWillAppear": kind = .callback(.viewWillAppear(controller))
      case "viewDidAppear": kind = .callback(.viewDidAppear(controller))
      case "viewWillDisappear": kind = .callback(.viewWillDisappear(controller))
      default: kind = .callback(.viewDidDisappear(controller))
      }
    }
    return UIKitTraceLine(number: number, t: t, kind: kind)
  }

  static func description(_ line: Fields) throws -> ControllerDescription {
    let bundle = try line.string("bundle")
    guard bundle == "app" || bundle == "system" else {
      throw UIKitTraceError(description: "bundle must be \"app\" or \"system\", not \"\(bundle)\"")
    }
    var style: ControllerDescription.Style?
    if let name = try line.optionalString("style") {
      guard let known = ControllerDescription.Style(rawValue: name), known != .other else {
        throw UIKitTraceError(description: "unknown style \"\(name)\"")
      }
      style = known
    }
    return ControllerDescription(
      id: ScreenInstance(try line.string("vc")), className: try line.string("class"),
      superclassNames: try line.strings("superclasses"), origin: bundle == "app" ? .app : .system,
      parent: try line.instance("parent"), presenting: try line.instance("presenting"), style: style,
      window: try line.instance("window"), windowScene: try line.instance("windowScene"),
      animated: try line.bool("animated"), isMovingToParent: try line.bool("isMovingToParent"),
      isMovingFromParent: try line.bool("isMovingFromParent"), isBeingPresented: try line.bool("isBeingPresented"),
      isBeingDismissed: try line.bool("isBeingDismissed"))
  }

  /// A line's fields, read with their types checked.
  struct Fields {
    let values: [String: Any]

    func value(_ key: String) throws -> Any {
      guard let value = values[key] else { throw UIKitTraceError(description: "missing \(key)") }
      return value
    }
    func string(_ key: String) throws -> String {
      guard let text = try value(key) as? String else { throw UIKitTraceError(description: "\(key) must be a string") }
      return text
    }
    func optionalString(_ key: String) throws -> String? {
      let value = try value(key)
      if value is NSNull { return nil }
      guard let text = value as? String else { throw UIKitTraceError(description: "\(key) must be a string or null") }
      return text
    }
    func instance(_ key: String) throws -> ScreenInstance? { try optionalString(key).map { ScreenInstance($0) } }
    func number(_ key: String) throws -> Double {
      let value = try value(key)
      guard let number = value as? NSNumber, !isBoolean(number) else {
        throw UIKitTraceError(description: "\(key) must be a number")
      }
      return number.doubleValue
    }
    func bool(_ key: String) throws -> Bool {
      let value = try value(key)
      guard let number = value as? NSNumber, isBoolean(number) else {
        throw UIKitTraceError(description: "\(key) must be true or false")
      }
      return number.boolValue
    }
    func strings(_ key: String) throws -> [String] {
      guard let list = try value(key) as? [Any], let names = list as? [String] else {
        throw UIKitTraceError(description: "\(key) must be a list of strings")
      }
      return names
    }
    private func isBoolean(_ number: NSNumber) -> Bool {
      // JSONSerialization gives booleans as NSNumber too, of Objective-C type "c" (char).
      String(cString: number.objCType) == "c"
    }
  }
}
