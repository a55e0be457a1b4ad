// Reads workflow commands, one per line of standard input (UTF-8), and parses each with the
// runner's own ActionCommand.TryParseV2, as the runner does with a step's output. For each line it
// writes one line: "-" when the runner would not take it as a command, else the command's name,
// then each property as KEY=BASE64 in ordinal order of the keys, then the data as BASE64, separated
// by tabs. BASE64 is of the UTF-8 bytes, so that nothing the parser returned is changed on the way
// back.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using GitHub.Runner.Common;

public static class Program
{
    public static int Main()
    {
        var utf8 = new UTF8Encoding(false);
        var input = new StreamReader(Console.OpenStandardInput(), utf8);
        var output = new StreamWriter(Console.OpenStandardOutput(), utf8);
        output.NewLine = "\n";
        var commands = new HashSet<string> { "error", "warning", "notice" };
        string line;
        while ((line = input.ReadLine()) != null)
        {
            ActionCommand command;
            if (!ActionCommand.TryParseV2(line, commands, out command))
            {
                output.WriteLine("-");
                continue;
            }
            var fields = new List<string> { command.Command };
            foreach (var key in command.Properties.Keys.OrderBy(k => k, StringComparer.Ordinal))
            {
                fields.Add(key + "=" + Convert.ToBase64String(utf8.GetBytes(command.Properties[key])));
            }
            fields.Add(Convert.ToBase64String(utf8.GetBytes(command.Data ?? "")));
            output.WriteLine(string.Join("\t", fields));
        }
        output.Flush();
        return 0;
    }
}
