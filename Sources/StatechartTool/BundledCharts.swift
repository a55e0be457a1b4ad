#if Tools
/// The charts that ship inside the tool, so that it runs on a fresh clone with no file given.
enum BundledCharts {
    /// `Examples/media-player.scxml`, verbatim (a test checks that the two are the same).
    static let mediaPlayerFile = "Examples/media-player.scxml"

    /// The media player: nested, parallel and history states, and timers scoped to states.
    static let mediaPlayer = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <!-- The media player that `Scripts/statechart.sh run` runs when it is given no chart.
             Try it at a prompt: Scripts/statechart.sh repl Examples/media-player.scxml -->
        <scxml xmlns="http://www.w3.org/2005/07/scxml" version="1.0" datamodel="null" name="media-player" initial="stopped">
          <state id="stopped">
            <transition event="play" target="active"/>
            <transition event="eject" target="ejected"/>
          </state>
          <parallel id="active">
            <state id="transport" initial="playback">
              <state id="playback" initial="playing">
                <history id="resume" type="deep">
                  <transition target="playing"/>
                </history>
                <state id="playing">
                  <!-- The position display updates every second, only while playing. -->
                  <onentry><send id="tick" event="tick" delay="1s"/></onentry>
                  <onexit><cancel sendid="tick"/></onexit>
                  <transition event="tick" target="playing"/>
                  <transition event="pause" target="paused"/>
                </state>
                <state id="paused">
                  <!-- Paused for five minutes, the player gives up and stops. -->
                  <onentry><send id="idle" event="idle" delay="300s"/></onentry>
                  <onexit><cancel sendid="idle"/></onexit>
                  <transition event="play" target="playing"/>
                  <transition event="idle" target="stopped"/>
                </state>
                <transition event="scrub" target="scrubbing"/>
              </state>
              <state id="scrubbing" initial="held">
                <state id="held">
                  <transition event="move" target="dragging"/>
                </state>
                <state id="dragging">
                  <transition event="move"/>
                </state>
                <!-- Letting go resumes what the player was doing: playing or paused. -->
                <transition event="release" target="resume"/>
              </state>
            </state>
            <state id="volume" initial="audible">
              <state id="audible">
                <transition event="mute" target="muted"/>
              </state>
              <state id="muted">
                <transition event="mute" target="audible"/>
              </state>
            </state>
            <transition event="stop" target="stopped"/>
          </parallel>
          <final id="ejected"/>
        </scxml>
        """#

    /// What `statechart run` does with the media player when it is given no events: a short
    /// session that shows each feature.
    static let mediaPlayerDemo = [
        "play", "wait 2s", "mute", "pause", "scrub", "move", "release", "play", "stop", "play", "wait 1s",
        "pause", "wait 5m", "eject",
    ]
}
#endif
