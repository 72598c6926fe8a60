import Dwell
import Testing

/// `trackScreen(_:whenVisible:)`'s decision: a section of a `ScrollView` counts while it is in
/// the hierarchy and visible, not from `onAppear` (which SwiftUI sends for sections still off
/// screen).
@Suite struct ScreenVisibilityTests {
  @Test func anOffScreenSectionThatAppearedDoesNotCountUntilItIsVisible() {
    var section = ScreenVisibility()
    #expect(section.inHierarchy(true) == nil)  // onAppear, below the fold
    #expect(section.visible(true) == .appear)  // scrolled to
    #expect(section.visible(true) == nil)
    #expect(section.visible(false) == .disappear)  // scrolled past
    #expect(section.inHierarchy(false) == nil)  // already not counting
  }

  @Test func leavingTheHierarchyEndsTheVisitAndVisibilityAloneDoesNotStartOne() {
    var section = ScreenVisibility()
    #expect(section.visible(true) == nil)  // a report before onAppear
    #expect(section.inHierarchy(true) == .appear)
    #expect(section.inHierarchy(false) == .disappear)  // the tab changed while it was visible
    #expect(section.visible(false) == nil)
    #expect(section.visible(true) == nil)
    #expect(section.inHierarchy(true) == .appear)
  }
}
