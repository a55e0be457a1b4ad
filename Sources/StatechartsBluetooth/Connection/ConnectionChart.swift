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
                    On(.pair, to: .scanning) { $0.context.choose(nil) }
                    On(.browse, to: .browsing) { $0.context.choose(nil) }
                }
                StateNode(.searching, initial: .scanning) {
                    OnEntry { $0.context.startSearching() }
                    OnExit { $0.context.central.stopScan() }
                    On(.discovered) { $0.context.noteSighting($0.event) }
                    On(.pairWith, to: .connecting, guard: { $0.event?.pickedPeripheral != nil }) {
                        $0.context.choose($0.event?.pickedPeripheral)
                    }
                    On(.stopSearching, to: .idle)
                    On(.disconnect, to: .idle)

                    StateNode(.scanning) {
                        Always(to: .connecting, guard: { $0.context.policyChoice != nil }) {
                            $0.context.choose($0.context.policyChoice)
                        }
                        if case .strongestSignal(let window) = configuration.pairingPolicy {
                            After(window) { $0.context.listened = true }
                        }
                        After(configuration.scanTimeout, to: .idle) { $0.context.failure = .scanTimedOut }
                        On(.browse, to: .browsing) { $0.context.choose(nil) }
                    }
                    StateNode(.browsing) {
                        // Re-entered every so often, to age out the peripherals no longer heard.
                        After(configuration.nearbyTimeout / 5, to: .browsing) { $0.context.removeSilentPeripherals() }
                        On(.pair, to: .scanning)
                    }
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
                            OnEntry { $0.context.discoverServices() }
                            On(
                                .discoveredServices, to: .discoveringCharacteristics,
                                guard: {
                                    isAboutOurPeripheral($0)
                                        && $0.event?.discoveryProblem(expecting: [$0.context.configuration.service])
                                            == nil
                                }
                            ) { $0.context.discoverCharacteristics(of: $0.event?.discoveredServices ?? []) }
                            On(.discoveredServices, to: .disconnecting, guard: isAboutOurPeripheral) { scope in
                                let problem = scope.event?.discoveryProblem(expecting: [
                                    scope.context.configuration.service
                                ])
                                scope.context.failure = .discoveryFailed(problem ?? "no service")
                            }
                        }
                        StateNode(.discoveringCharacteristics) {
                            // The message service's discovery must succeed; another service's may fail.
                            On(
                                .discoveredCharacteristics, to: .disconnecting,
                                guard: {
                                    isAboutOurPeripheral($0) && $0.event?.error != nil
                                        && $0.event?.discoveredService == $0.context.configuration.service
                                }
                            ) { $0.context.failure = .discoveryFailed("\($0.event?.error.map { "\($0)" } ?? "")") }
                            On(.discoveredCharacteristics, guard: isAboutOurPeripheral) {
                                $0.context.noteCharacteristics($0.event)
                            }
                            Always(
                                to: .discoveringDescriptors,
                                guard: {
                                    $0.context.servicesToDiscover.isEmpty && $0.context.chosenWriteType != nil
                                }
                            ) { $0.context.writeType = $0.context.chosenWriteType }
                            Always(to: .disconnecting, guard: { $0.context.servicesToDiscover.isEmpty }) { scope in
                                scope.context.failure = .discoveryFailed(
                                    scope.context.messageCharacteristicsProblem ?? "no characteristics")
                            }
                        }
                        StateNode(.discoveringDescriptors) {
                            OnEntry { scope in
                                guard let peripheral = scope.context.peripheral else { return }
                                scope.context.central.discoverDescriptors(
                                    of: scope.context.configuration.notifyCharacteristicID, of: peripheral)
                            }
                            On(
                                .discoveredDescriptors, to: .ready,
                                guard: {
                                    isAboutOurPeripheral($0) && $0.event?.error == nil
                                        && $0.event?.discoveredDescriptors?.contains(.clientCharacteristicConfiguration)
                                            == true
                                })
                            On(.discoveredDescriptors, to: .disconnecting, guard: isAboutOurPeripheral) { scope in
                                let reason =
                                    scope.event?.error.map { "\($0)" }
                                    ?? "\(scope.context.configuration.notifyCharacteristic) has no configuration descriptor"
                                scope.context.failure = .discoveryFailed(reason)
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
                            context.rememberPeripheral()
                            context.central.setNotifyValue(
                                true, for: context.configuration.notifyCharacteristicID, of: peripheral)
                            context.messenger.linkUp(
                                central: context.central, peripheral: peripheral,
                                characteristic: context.configuration.writeCharacteristicID,
                                type: context.writeType ?? .withResponse)
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
                    On(.pair, to: .scanning) { $0.context.choose(nil) }
                    On(.browse, to: .browsing) { $0.context.choose(nil) }
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

extension ConnectionEvent {
    /// The radio state a ``stateChanged(_:)`` carries.
    var centralState: CentralState? { if case .stateChanged(let state) = self { state } else { nil } }

    /// The peripherals a ``willRestore(_:)`` carries.
    var restoredPeripherals: [RestoredPeripheral]? {
        if case .willRestore(let peripherals) = self { peripherals } else { nil }
    }

    /// The peripheral a ``pairWith(_:)`` names.
    var pickedPeripheral: PeripheralID? { if case .pairWith(let id) = self { id } else { nil } }

    /// The services a ``discoveredServices(_:_:_:)`` found.
    var discoveredServices: [BluetoothUUID]? {
        if case .discoveredServices(_, let services, _) = self { services } else { nil }
    }

    /// The service a ``discoveredCharacteristics(_:service:_:_:)`` is about.
    var discoveredService: BluetoothUUID? {
        if case .discoveredCharacteristics(_, let service, _, _) = self { service } else { nil }
    }

    /// The descriptors a ``discoveredDescriptors(_:characteristic:_:_:)`` found.
    var discoveredDescriptors: [BluetoothUUID]? {
        if case .discoveredDescriptors(_, _, let descriptors, _) = self { descriptors } else { nil }
    }

    /// What is wrong with a service discovery, or `nil` when it found everything `expected`.
    func discoveryProblem(expecting expected: [BluetoothUUID]) -> String? {
        guard case .discoveredServices(_, let found, let error) = self else { return "not a discovery" }
        if let error { return "\(error)" }
        let missing = expected.filter { !found.contains($0) }
        return missing.isEmpty ? nil : "missing " + missing.map(\.text).joined(separator: ", ")
    }
}
