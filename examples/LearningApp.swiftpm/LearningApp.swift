import Dwell
import DwellLua
import DwellSwiftUI
import DwellUIKit
import SwiftUI

/// The app: Dwell is configured once, with the Lua rule pack from the app's resources
/// (`rules/`, copied into this target's bundle, `Bundle.module`).
@main
struct LearningApp: App {
  @State private var usage: UsageModel

  init() {
    let tracker = Tracker.configureShared(Tracker.Configuration())
    if let path = Bundle.module.path(forResource: "rules", ofType: nil) {
      do {
        // The pack's rules, levels and plugins, in force from the start.
        try tracker.setRules(pack: try LuaRulePack(contentsOf: path))
      } catch {
        print("LearningApp: the rule pack did not load: \(error)")
      }
    }
    _usage = State(initialValue: UsageModel(tracker: tracker))
  }

  var body: some Scene {
    WindowGroup {
      RootView(usage: usage)
        // Every window feeds the app lifecycle, touches and clock changes...
        .trackAppLifecycle()
        // ...so UIKit tracks screens only (LessonViewController).
        .onAppear { DwellUIKit.start(tracker: .shared, tracksAppLifecycle: false) }
    }
  }
}

struct RootView: View {
  let usage: UsageModel

  var body: some View {
    TabView {
      NavigationStack {
        LessonsList(usage: usage)
      }
      .tabItem { Label("Lessons", systemImage: "book") }
      NavigationStack {
        ProfileView(usage: usage)
      }
      .tabItem { Label("Profile", systemImage: "person") }
    }
  }
}

struct LessonsList: View {
  let usage: UsageModel

  var body: some View {
    List {
      Section("Today") {
        DailyGoalView(rule: "daily-goal", usage: usage)  // the pack's recurring rule
      }
      NavigationLink("Lesson 1 (UIKit)") { LessonScreen() }  // tracked by DwellUIKit as "Lessons"
      UnlockGate("bonus-level", usage: usage) {
        NavigationLink("Bonus level") { Text("You made it!").trackScreen("Bonus") }
      } locked: { progress in
        VStack(alignment: .leading) {
          Text("Bonus level (locked)")
          ProgressView(value: progress.fraction) { Text(progress.remaining).font(.caption) }
        }
      }
    }
    .navigationTitle("Lessons")
    .trackScreen("Lessons")
  }
}

struct ProfileView: View {
  let usage: UsageModel

  var body: some View {
    List {
      LabeledContent("Points", value: "\(usage.points)")
      LabeledContent("Streak", value: "\(usage.currentStreak()) days")
      LabeledContent("Time in Lessons", value: "\(Int(usage.time(.screen("Lessons")).seconds / 60)) min")
      if usage.isUnlocked("bookworm") { Label("Bookworm badge", systemImage: "rosette") }
      if let note = usage.lastNotification { Text("\(note.title)") }
    }
    .navigationTitle("Profile")
    .trackScreen("Profile")
  }
}
