import Dwell
import DwellLua
import DwellTesting
import Foundation
import Testing

/// Signed rule packs (issue #13, item 2): `installRulePack(_:signature:)` verifies an
/// Ed25519 signature (CryptoKit or libsodium) against the app's keys, keeps the last good
/// pack beside the store, refuses anything else with a typed error, and the next launch
/// loads the last good pack. Real key pairs, made in the test.
@Suite struct SignedRulePackTests {
  let folder = TemporaryStore()
  let keys = PackSignature.makeKeyPair()
  let otherKeys = PackSignature.makeKeyPair()

  func pack(_ rule: String, _ extra: String = "", version: Int? = nil) -> Data {
    RulePackArchive(
      files: [
        "a.lua": "unlock \"\(rule)\" { title = \"\(rule)\", when = { appSeconds = 60 } }\n\(extra)",
        "b.lua": "unlock \"\(rule)-b\" { title = \"B\", when = { appSeconds = 120 } }",
      ], version: version
    ).data
  }

  func tracker(keys trusted: [Data]? = nil, rules: [Rule] = [], loader: Bool = true) -> Tracker {
    var configuration = Tracker.Configuration()
    configuration.storeLocation = .file(folder.path)
    configuration.trustedPackKeys = trusted ?? [otherKeys.publicKey, keys.publicKey]
    configuration.packLoader = loader ? LuaPackLoader() : nil
    configuration.rules = rules
    let clock = ManualClock()
    return Tracker(
      configuration: configuration, clock: clock, wallClock: ManualWallClock(clock: clock), scheduler: clock)
  }

  func ids(_ tracker: Tracker) -> [String] { tracker.rules.map(\.id).sorted() }

  func refusal(_ body: () throws(RulePackError) -> Void) -> RulePackError? {
    do {
      try body()
      return nil
    } catch {
      return error
    }
  }

  @Test func aGoodSignatureInstallsAndTheNextLaunchLoadsIt() throws {
    let data = pack("v1")
    do {
      let first = tracker()
      try first.installRulePack(data, signature: PackSignature.sign(data, with: keys.privateKey))
      #expect(ids(first) == ["v1", "v1-b"])
      #expect(first.engine?.rules.map(\.id).sorted() == ["v1", "v1-b"])
      first.terminate()
    }
    let relaunched = tracker()
    #expect(ids(relaunched) == ["v1", "v1-b"])
    #expect(relaunched.lastProblem == nil)
  }

  @Test func tamperedWrongKeyAndTruncatedPacksAreRefused() throws {
    let good = pack("v1")
    let tracker = tracker()
    try tracker.installRulePack(good, signature: PackSignature.sign(good, with: keys.privateKey))
    let next = pack("v2")
    let signature = PackSignature.sign(next, with: keys.privateKey)
    var tampered = next
    tampered[tampered.count / 2] ^= 0x01
    var badSignature = signature
    badSignature[0] ^= 0x80
    let cases: [(String, Data, Data)] = [
      ("a changed byte", tampered, signature),
      ("a wrong key", next, PackSignature.sign(next, with: PackSignature.makeKeyPair().privateKey)),
      ("truncated data", next.dropLast(), signature),
      ("a truncated signature", next, signature.dropLast()),
      ("a damaged signature", next, badSignature),
      ("no signature", next, Data()),
    ]
    for (name, data, signature) in cases {
      #expect(
        refusal { () throws(RulePackError) in try tracker.installRulePack(data, signature: signature) }
          == .invalidSignature, "\(name)")
      #expect(ids(tracker) == ["v1", "v1-b"], "\(name) changed the rules in force")
    }
  }

  @Test func withoutTrustedKeysEveryPackIsRefused() {
    let data = pack("v1")
    let tracker = tracker(keys: [])
    #expect(
      refusal { () throws(RulePackError) in
        try tracker.installRulePack(data, signature: PackSignature.sign(data, with: keys.privateKey))
      } == .noTrustedKeys)
    #expect(tracker.rules.isEmpty)
  }

  /// Keys but no loader: the refusal says what is missing, not that there are no keys.
  @Test func withoutALoaderThePackIsRefusedSayingSo() {
    let data = pack("v1")
    let tracker = tracker(loader: false)
    let error = refusal { () throws(RulePackError) in
      try tracker.installRulePack(data, signature: PackSignature.sign(data, with: keys.privateKey))
    }
    #expect(error != .noTrustedKeys)
    #expect("\(error.map { "\($0)" } ?? "")".contains("packLoader"), "\(String(describing: error))")
    #expect(tracker.rules.isEmpty)
  }

  @Test func aSignedPackThatFailsToLoadRollsBackToTheLastGoodOne() throws {
    let good = pack("v1")
    do {
      let tracker = tracker(rules: [Rule("mine", when: .sessions(3))])
      try tracker.installRulePack(good, signature: PackSignature.sign(good, with: keys.privateKey))
      // Newer than the pack in force (version 0), so they get as far as loading.
      let broken = pack("v2", "unlock \"x\" { when = ", version: 1)  // a syntax error
      let clash = pack("mine", version: 1)  // the app's own rule id
      let notJSON = Data("{\"format\": \"dwell-rule-pack/1\"".utf8)
      let wrongFormat = Data("{\"format\": \"zip\", \"files\": {\"a.lua\": \"\"}}".utf8)
      for data in [broken, clash, notJSON, wrongFormat] {
        let error = refusal { () throws(RulePackError) in
          try tracker.installRulePack(data, signature: PackSignature.sign(data, with: keys.privateKey))
        }
        switch error {
        case .refused?, .malformedArchive?: break
        default: Issue.record("expected a refusal, got \(String(describing: error))")
        }
        #expect(ids(tracker) == ["mine", "v1", "v1-b"])
      }
      tracker.terminate()
    }
    // The last good pack is the one on disk.
    #expect(ids(tracker(rules: [Rule("mine", when: .sessions(3))])) == ["mine", "v1", "v1-b"])
  }

  @Test func aSavedPackThatNoLongerVerifiesIsReportedAtLaunch() throws {
    let data = pack("v1")
    do {
      let first = tracker()
      try first.installRulePack(data, signature: PackSignature.sign(data, with: keys.privateKey))
      first.terminate()
    }
    let rotated = tracker(keys: [otherKeys.publicKey])
    #expect(rotated.rules.isEmpty)
    guard case .rulesRefused(let error)? = rotated.lastProblem else {
      Issue.record("no problem reported: \(String(describing: rotated.lastProblem))")
      return
    }
    #expect(error.description.contains("signature"))
  }

  @Test func archivesRoundTripAndRejectBadNames() throws {
    let archive = RulePackArchive(files: ["b.lua": "x", "a.lua": "y"])
    #expect(try RulePackArchive(data: archive.data) == archive)
    #expect(archive.files.map(\.name) == ["a.lua", "b.lua"])
    let bad = Data("{\"format\": \"dwell-rule-pack/1\", \"files\": {\"../x.lua\": \"\"}}".utf8)
    #expect(throws: RulePackError.self) { try RulePackArchive(data: bad) }
  }
}
