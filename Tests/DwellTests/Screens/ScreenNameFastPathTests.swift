import DwellTesting
import Foundation
import Testing

@testable import Dwell

/// The hot path checks a screen name from its UTF-8 bytes (Dwell issue 23): the check must
/// agree with the cleaning itself for every name, and names recorded before the store opens
/// are cleaned like the rest.
@Suite struct ScreenNameFastPathTests {
  /// The cleaning written out plainly (the rules of ``ScreenName``), to compare with.
  static func reference(_ name: String) -> String {
    var result = String(
      String.UnicodeScalarView(name.unicodeScalars.filter { !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) })
    )
    .trimmingCharacters(in: .whitespacesAndNewlines)
    if result.count > 200 { result = String(result.prefix(200)) }
    return result.isEmpty ? "Unnamed" : result
  }

  /// What the hot path's check must answer: the name is its own cleaning, in at most 200
  /// bytes (a longer name that cleans to itself takes the slow path, which keeps it).
  static func isClean(_ name: String) -> Bool { reference(name) == name && name.utf8.count <= 200 }

  static let names: [String] = [
    "Lessons", "LessonsViewController", "a", "", " ", "Lessons ", " Lessons", "Les sons", "Les\tsons", "Lessons\n",
    "\u{7F}Lessons", "Less\u{7F}ons", "Less\u{0}ons", "Less\u{1B}[2Jons", "Less\u{85}ons", "Less\u{9F}ons",
    "Less\u{A0}ons", "Lessons\u{A0}", "\u{A0}Lessons", "Less\u{80}ons", "Less\u{C0}ons", "Lessons\u{3000}",
    "Lessons\u{200B}", "Les\u{200B}sons", "👩‍👩‍👧‍👦", "a👩‍👩‍👧‍👦b", "درس‌ها", "aدرس‌هاb", "é", "aéb", "a\u{85}",
    "\u{85}a", String(repeating: "x", count: 200), String(repeating: "x", count: 201),
    String(repeating: "é", count: 100), "a" + String(repeating: "é", count: 100),
    "a" + String(repeating: "é", count: 99) + "b", String(repeating: "x", count: 199) + " ",
    "~!@#$%^&*()_+{}|:<>?`-=[]\\;',./", "Lessons\u{2028}", "Lessons\r", "\u{C}Lessons",
  ]

  @Test func theByteCheckAgreesWithTheCleaning() {
    for name in Self.names {
      #expect(ScreenName.clean(name) == Self.reference(name), "\(name.unicodeScalars.map { $0.value })")
      #expect(ScreenName.isClean(name) == Self.isClean(name), "\(name.unicodeScalars.map { $0.value })")
    }
  }

  @Test func everyByteAtEitherEndAndInsideAgrees() {
    for value in UInt32(0)...0x2FF {
      guard let scalar = Unicode.Scalar(value) else { continue }
      // Short names go byte by byte, names of 8 bytes or more 8 at a time (at every place
      // in a word, and in the overlapping last one).
      let long = (0...20).map {
        String("LessonsViewControllr".prefix($0)) + "\(scalar)" + "LessonsViewControllr".dropFirst($0)
      }
      for name in ["a\(scalar)b", "\(scalar)ab", "ab\(scalar)", "\(scalar)", "Lessons\(scalar)", "\(scalar)Lessons"]
        + long
      {
        #expect(ScreenName.isClean(name) == Self.isClean(name), "U+\(String(value, radix: 16)) in \(name)")
      }
    }
  }

  @Test func namesRecordedBeforeTheStoreOpensAreCleaned() throws {
    let clock = ManualClock()
    let engine = try Engine(
      store: Store(path: ":memory:"), clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
    engine.enqueue([
      (clock.now(), .active), (clock.now(), .appear(screen: " Less\u{1B}ons\n", id: ScreenInstance("a"))),
    ])
    engine.applyEnqueued()
    clock.advance(by: .seconds(5))
    #expect(engine.time(.screen("Lessons")) == .seconds(5))
    #expect(engine.liveState().visible.map(\.name) == ["Lessons"])
  }
}
