import Link from 'next/link';

export default function Home() {
  return (
    <main>
      <h1>Agents</h1>
      <ul>
        <li>
          <Link href="/agents/chat-agent">Chat agent</Link>
        </li>
        <li>
          <Link href="/agents/form-agent">Form agent</Link>
        </li>
        <li>
          <Link href="/threads">A durable agent, its threads kept in this browser</Link>
        </li>
      </ul>
    </main>
  );
}
