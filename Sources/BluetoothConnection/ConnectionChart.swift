import Statecharts

/// The chart of a Bluetooth LE connection: power, pairing, reconnection, range and discovery.
///
/// Every effect is an entry, exit or transition action that commands the context's
/// ``BluetoothCentral``; every timeout is an `After` of the state it bounds, so leaving the
/// state cancels it. ``BluetoothConnection`` runs the chart; `statechart check` and the pictures
/// read it like any other.
public enum ConnectionChart {
    /// The chart's type.
    public typealias Chart = Statechart<ConnectionState, ConnectionEvent, ConnectionContext>
    /// The scope actions and guards receive.
    typealias ChartScope = Scope<ConnectionState, ConnectionEvent, ConnectionContext>

    /// Makes the chart for `configuration`'s timeouts.
    public static func make(_ configuration: ConnectionConfiguration) throws -> Chart {
        try Chart("bluetooth-connection", initial: .waitingForPower) {
            StateNode(.waitingForPower) {
                On(.stateChanged, to: .poweredOn, guard: { $0.event?.centralState == .poweredOn }) {
                    $0.context.power = .poweredOn
                    $0.context.failure = nil
                }
                On(.stateChanged) { scope in
                    let power = scope.event?.centralState ?? .unknown
                    scope.context.power = power
                    if power == .unsupported || power == .unauthorized { scope.context.failure = .unavailable(power) }
                }
                // Held until Bluetooth is on: the system restores before it reports its state.
                On(.willRestore) { $0.context.restored = $0.event?.restoredPeripherals ?? [] }
                On(.unpair) { $0.context.forget() }
            }
            StateNode(.poweredOn, initial: .choosing) {
                On(.stateChanged, to: .waitingForPower, guard: { $0.event?.centralState != .poweredOn }) {
                    $0.context.power = $0.event?.centralState ?? .unknown
                }
                On(.unpair, to: .idle) { $0.context.forget() }

                StateNode(.choosing) {
                    OnEntry { $0.context.chooseStart() }
                    Always(to: .link, guard: { $0.context.start == .connected })
                    Always(to: .waitingForReturn, guard: { $0.context.start == .waitForReturn })
                    Always(to: .connecting, guard: { $0.context.start == .connect })
                    Always(to: .scanning, guard: { $0.context.start == .scan })
                    Always(to: .idle)
                }
                StateNode(.idle) {
                    On(.pair, to: .scanning)
                }
                StateNode(.scanning) {
                    OnEntry { scope in
                        scope.context.failure = nil
                        scope.context.central.scanForPeripherals(withServices: [scope.context.configuration.service])
                    }
                    OnExit { $0.context.central.stopScan() }
                    On(.discovered, to: .connecting) { $0.context.peripheral = $0.event?.peripheral }
                    After(configuration.scanTimeout, to: .idle) { $0.context.failure = .scanTimedOut }
                    On(.disconnect, to: .idle)
                }
                StateNode(.connecting) {
                    OnEntry { scope in
                        guard let peripheral = scope.context.peripheral else { return }
                        scope.context.failure = nil
                        scope.context.central.connect(peripheral)
                    }
                    On(.connected, to: .link, guard: isAboutOurPeripheral)
                    On(.failedToConnect, to: .disconnected, guard: isAboutOurPeripheral) {
                        $0.context.failure = .connectFailed($0.event?.error)
                    }
                    After(configuration.connectTimeout, to: .disconnected) { scope in
                        cancelConnection(&scope)
                        scope.context.failure = .connectTimedOut
                    }
                    On(.disconnect, to: .disconnected) { cancelConnection(&$0) }
                }
                StateNode(.link, initial: .discovering) {
                    StateNode(.discovering, initial: .discoveringServices) {
                        StateNode(.discoveringServices) {
                            OnEntry { scope in
                                guard let peripheral = scope.context.peripheral else { return }
                                scope.context.central.discoverServices(
                                    [scope.context.configuration.service], of: peripheral)
                            }
                            On(
                                .discoveredServices, to: .discoveringCharacteristics,
                                guard: {
                                    isAboutOurPeripheral($0)
                                        && $0.event?.discoveryProblem(expecting: [$0.context.configuration.service])
                                            == nil
                                })
                            On(.discoveredServices, to: .disconnecting, guard: isAboutOurPeripheral) { scope in
                                let problem = scope.event?.discoveryProblem(expecting: [
                                    scope.context.configuration.service
                                ])
                                scope.context.failure = .discoveryFailed(problem ?? "no service")
                            }
                        }
                        StateNode(.discoveringCharacteristics) {
                            OnEntry { scope in
                                guard let peripheral = scope.context.peripheral else { return }
                                let configuration = scope.context.configuration
                                scope.context.central.discoverCharacteristics(
                                    [configuration.writeCharacteristic, configuration.notifyCharacteristic],
                                    of: configuration.service, of: peripheral)
                            }
                            On(
                                .discoveredCharacteristics, to: .ready,
                                guard: {
                                    isAboutOurPeripheral($0)
                                        && $0.event?.discoveryProblem(expecting: $0.context.characteristics) == nil
                                })
                            On(.discoveredCharacteristics, to: .disconnecting, guard: isAboutOurPeripheral) { scope in
                                let problem = scope.event?.discoveryProblem(expecting: scope.context.characteristics)
                                scope.context.failure = .discoveryFailed(problem ?? "no characteristics")
                            }
                        }
                        After(configuration.discoveryTimeout, to: .disconnecting) {
                            $0.context.failure = .discoveryTimedOut
                        }
                    }
                    StateNode(.ready) {
                        OnEntry { scope in
                            guard let peripheral = scope.context.peripheral else { return }
                            let context = scope.context
                            context.memory.pairedPeripheral = peripheral
                            context.central.setNotifyValue(
                                true, for: context.configuration.notifyCharacteristic, of: peripheral)
                            context.messenger.linkUp(
                                central: context.central, peripheral: peripheral,
                                characteristic: context.configuration.writeCharacteristic)
                        }
                        OnExit { $0.context.messenger.linkDown() }
                    }
                    // Out of range: ask again, with no timeout, and wait for the device to return.
                    On(
                        .disconnected, to: .waitingForReturn,
                        guard: { isAboutOurPeripheral($0) && $0.event?.error?.meansOutOfRange == true })
                    On(.disconnected, to: .disconnected, guard: isAboutOurPeripheral) { scope in
                        // No error: the app's own doing (a cancel from elsewhere).
                        if let error = scope.event?.error { scope.context.failure = .disconnected(error) }
                    }
                    On(.disconnect, to: .disconnecting)
                }
                StateNode(.waitingForReturn) {
                    OnEntry { scope in
                        guard let peripheral = scope.context.peripheral else { return }
                        scope.context.central.connect(peripheral)
                    }
                    On(.connected, to: .link, guard: isAboutOurPeripheral)
                    On(.failedToConnect, to: .disconnected, guard: isAboutOurPeripheral) {
                        $0.context.failure = .connectFailed($0.event?.error)
                    }
                    On(.disconnect, to: .disconnected) { cancelConnection(&$0) }
                }
                StateNode(.disconnecting) {
                    OnEntry { cancelConnection(&$0) }
                    On(.disconnected, to: .disconnected, guard: isAboutOurPeripheral)
                }
                StateNode(.disconnected) {
                    On(.reconnect, to: .connecting, guard: { $0.context.peripheral != nil })
                    On(.pair, to: .scanning)
                }
            }
        }
    }

    /// Whether the event is about the peripheral the chart is connecting or connected to.
    @Sendable static func isAboutOurPeripheral(_ scope: borrowing ChartScope) -> Bool {
        scope.event?.peripheral != nil && scope.event?.peripheral == scope.context.peripheral
    }

    static func cancelConnection(_ scope: inout ChartScope) {
        guard let peripheral = scope.context.peripheral else { return }
        scope.context.central.cancelPeripheralConnection(peripheral)
    }
}

extension ConnectionContext {
    /// The characteristics the chart needs.
    var characteristics: [BluetoothUUID] { [configuration.writeCharacteristic, configuration.notifyCharacteristic] }
}

extension ConnectionEvent {
    /// The radio state a ``stateChanged(_:)`` carries.
    var centralState: CentralState? { if case .stateChanged(let state) = self { state } else { nil } }

    /// The peripherals a ``willRestore(_:)`` carries.
    var restoredPeripherals: [RestoredPeripheral]? {
        if case .willRestore(let peripherals) = self { peripherals } else { nil }
    }

    /// What is wrong with a discovery result, or `nil` when it found everything `expected`.
    func discoveryProblem(expecting expected: [BluetoothUUID]) -> String? {
        let found: [BluetoothUUID]
        switch self {
        case .discoveredServices(_, let services, let error):
            if let error { return "\(error)" }
            found = services
        case .discoveredCharacteristics(_, let characteristics, let error):
            if let error { return "\(error)" }
            found = characteristics
        default: return "not a discovery"
        }
        let missing = expected.filter { !found.contains($0) }
        return missing.isEmpty ? nil : "missing " + missing.map(\.text).joined(separator: ", ")
    }
}
