import StatechartTool

StatechartCommand.main()
